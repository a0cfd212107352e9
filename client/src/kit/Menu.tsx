/**
 * An action menu (React Aria Components): a button opens a popover menu;
 * arrow keys, Home/End and typing move, Enter/Space choose, Escape closes and
 * returns focus to the button. For links between pages use a disclosure
 * (the site header's account menu), not this.
 */
import type { ReactNode } from "react";
import { Button, Menu as AriaMenu, MenuItem, MenuTrigger, Popover } from "react-aria-components";

export interface MenuAction {
  id: string;
  label: string;
  /** Why the action is not possible now (shown, and the item disabled). */
  disabledReason?: string;
  danger?: boolean;
}

export function Menu({ label, actions, onAction, buttonClassName = "btn btn-ghost btn-sm" /* i18n-ignore: CSS classes */ }: { label: ReactNode; actions: readonly MenuAction[]; onAction: (id: string) => void; buttonClassName?: string }) {
  return (
    <MenuTrigger>
      <Button className={buttonClassName}>{label}</Button>
      <Popover className="kit-popover" placement="bottom end" /* i18n-ignore: a placement */>
        <AriaMenu className="kit-menu" onAction={(k) => onAction(String(k))} disabledKeys={actions.filter((a) => a.disabledReason).map((a) => a.id)}>
          {actions.map((a) => (
            <MenuItem key={a.id} id={a.id} className={`kit-menu-item${a.danger ? " danger" : ""}`} textValue={a.label}>
              <span>{a.label}</span>
              {a.disabledReason && <span className="kit-description">{a.disabledReason}</span>}
            </MenuItem>
          ))}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}

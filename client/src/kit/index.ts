/**
 * The form kit's light part (native controls, no widget library): every
 * page's fields. The composite widgets are imported from their own modules
 * (./Dialog.tsx, ./Tabs.tsx, ./Menu.tsx, ./Toast.tsx, ./ProblemMultiSelect.tsx)
 * so React Aria Components loads only with the pages that use them.
 */
export { Checkbox, ColorField, DateTimeField, FieldRow, NumberField, RadioGroup, RangeField, Select, TextArea, TextField, viewerTimeZone } from "./Field.tsx";
export type { RadioOption } from "./Field.tsx";
export { FileButton } from "./FileButton.tsx";
export { FilterCheckboxList, type FilterCheckboxItem } from "./FilterCheckboxList.tsx";

/**
 * For bun tests of client modules that translate: catalogues imported outside
 * the Vite build are raw ICU text, so Lingui compiles them at run time here
 * (the build ships them compiled); English is made active.
 */
import { i18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";

i18n.setMessagesCompiler(compileMessage);
if (!i18n.locale) i18n.activate("en");

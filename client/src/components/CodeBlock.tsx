/** Read-only code with syntax highlighting (prism-react-renderer) in the editor's light or dark colours (editor/themes.ts), a scroll pane reachable by keyboard. */
import { Highlight, Prism } from "prism-react-renderer";
import { PRISM_THEMES } from "../editor/themes.ts";
import { editorModeOf, languageName } from "../lib/languages.ts";
import { useTheme } from "../lib/theme.tsx";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

// prism-react-renderer bundles C++ and Python but not Java: a compact Java
// grammar on top of clike, after prismjs's prism-java component.
if (!Prism.languages.java) {
  Prism.languages.java = Prism.languages.extend("clike", {
    "class-name": /\b[A-Z]\w*(?=\s*(?:[<\[(.]|\w+\s*[=;,)]))|(?<=\b(?:class|interface|enum|extends|implements|new|record)\s+)[A-Z]\w*/,
    keyword:
      /\b(?:abstract|assert|boolean|break|byte|case|catch|char|class|const|continue|default|do|double|else|enum|exports|extends|final|finally|float|for|goto|if|implements|import|instanceof|int|interface|long|module|native|new|non-sealed|null|open|opens|package|permits|private|protected|provides|public|record|requires|return|sealed|short|static|strictfp|super|switch|synchronized|this|throw|throws|to|transient|transitive|try|uses|var|void|volatile|while|with|yield)\b/,
    number: /\b0b[01][01_]*L?\b|\b0x(?:\.[\da-f_p+-]+|[\da-f_]+(?:\.[\da-f_p+-]+)?)\b|(?:\b\d[\d_]*(?:\.[\d_]*)?|\B\.\d[\d_]*)(?:e[+-]?\d[\d_]*)?[dfl]?/i,
    operator: /<<=?|>>>?=?|->|--|\+\+|&&|\|\||::|[?:~]|[-+*/%&|^!=<>]=?/,
  });
}


export function CodeBlock({ code, language }: { code: string; language: string }) {
  const t = useT(common);
  const { dark } = useTheme();
  return (
    <Highlight code={code.replace(/\s+$/, "")} language={editorModeOf(language, "clike")} theme={dark ? PRISM_THEMES.dark : PRISM_THEMES.light}>
      {({ className, style, tokens, getLineProps, getTokenProps }) => (
        <pre className={`code-block ${className}`} style={style} tabIndex={0} role="region" aria-label={t("code.submitted", { language: languageName(language) })}>
          {tokens.map((line, i) => {
            const { key: _lineKey, ...lineProps } = getLineProps({ line, key: i });
            return (
              <div key={i} {...lineProps}>
                <span className="line-no" aria-hidden="true">
                  {i + 1}
                </span>
                {line.map((token, j) => {
                  const { key: _tokenKey, ...tokenProps } = getTokenProps({ token, key: j });
                  return <span key={j} {...tokenProps} />;
                })}
              </div>
            );
          })}
        </pre>
      )}
    </Highlight>
  );
}

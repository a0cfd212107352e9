/**
 * A problem statement field as Markdown with LaTeX math: GitHub-flavoured
 * Markdown (tables, lists), `$…$` and `$$…$$` math typeset by KaTeX. Safe for
 * text anyone can write: raw HTML is dropped, the tree is sanitised
 * (rehype-sanitize's GitHub schema, plus the classes that mark math) before
 * KaTeX runs, KaTeX runs untrusted (no \href, \url, \htmlClass; bounded macro
 * expansion and sizes), links open in a new tab without the opener, and
 * images from other sites are not loaded unless the reader opens them. Loaded lazily
 * (its own chunk with KaTeX), so pages render the plain text first.
 */
import Markdown, { defaultUrlTransform, type Components } from "react-markdown";
import rehypeKatex from "rehype-katex";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import "katex/dist/katex.min.css";
import { ForeignImage } from "./ForeignImage.tsx";

/** KaTeX's bounds for text anyone can write: sizes (\rule, \kern, \big…) at most 10 em, at most 1000 macro expansions. */
const KATEX_OPTIONS = { throwOnError: false, trust: false, maxSize: 10, maxExpand: 1000, strict: "ignore" } as const;

/** The GitHub schema, letting math's code elements keep `math-inline` / `math-display` for KaTeX. */
const schema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [...(defaultSchema.attributes?.code ?? []), ["className", /^language-./, "math-inline", "math-display"]],
  },
};

const linkComponents: Components = {
  img: ForeignImage,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
};
/** In a preview inside a card, links are text (the card has its own actions). */
const previewComponents: Components = { img: ForeignImage, a: ({ children }) => <span>{children}</span> };

/** Where an image named relatively (`cat.png`, from a package's statement folder) is served. */
function imageUrl(assetBase: string | undefined) {
  return (url: string, key: string): string => {
    if (assetBase && key === "src" && /^[^/:?#\\]+$/.test(url)) return `${assetBase}/${encodeURIComponent(url)}`;
    return defaultUrlTransform(url);
  };
}

export default function StatementMarkdown({ text, preview = false, assetBase }: { text: string; preview?: boolean; assetBase?: string }) {
  return (
    <Markdown
      skipHtml
      urlTransform={imageUrl(assetBase)}
      remarkPlugins={[remarkGfm, remarkMath]}
      rehypePlugins={[[rehypeSanitize, schema], [rehypeKatex, KATEX_OPTIONS]]}
      components={preview ? previewComponents : linkComponents}
    >
      {text}
    </Markdown>
  );
}

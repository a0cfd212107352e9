/** Text imports (`import text from "./file.py" with { type: "text" }`): Bun bundles the file's content as a string. */
declare module "*.py" {
  const text: string;
  export default text;
}

/** File imports (`import path from "x.wasm" with { type: "file" }`): a path Bun resolves (embedded in the single binary). */
declare module "*.wasm" {
  const path: string;
  export default path;
}

/** Text imports (`import text from "./file.py" with { type: "text" }`): Bun bundles the file's content as a string. */
declare module "*.py" {
  const text: string;
  export default text;
}

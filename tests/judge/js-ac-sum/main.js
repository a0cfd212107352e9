const [a, b] = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(BigInt);
console.log(String(a + b));

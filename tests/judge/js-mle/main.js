const keep = [];
for (;;) keep.push(new Array(1 << 20).fill(7));

// Loaded with --require: records every use of ICU-backed Intl (a constructor of Intl, or a
// toLocale… / localeCompare method) and, at exit, writes the first line of each user's stack
// to the file named by INTL_USES_FILE, one per line. A first use maps megabytes of ICU data.
const { writeFileSync } = require('node:fs');

const uses = new Set();
const record = (what) => {
  const site = (new Error().stack ?? '').split('\n').slice(3, 4).join('').trim();
  uses.add(`${what} ${site}`);
};
for (const name of Object.getOwnPropertyNames(Intl)) {
  const C = Intl[name];
  if (typeof C !== 'function') continue;
  Intl[name] = new Proxy(C, {
    construct(target, args, newTarget) {
      record(`new Intl.${name}`);
      return Reflect.construct(target, args, newTarget === Intl[name] ? target : newTarget);
    },
    apply(target, self, args) {
      record(`Intl.${name}()`);
      return Reflect.apply(target, self, args);
    },
  });
}
for (const [proto, methods] of [
  [Number.prototype, ['toLocaleString']],
  [BigInt.prototype, ['toLocaleString']],
  [Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
  [Array.prototype, ['toLocaleString']],
  [String.prototype, ['localeCompare', 'toLocaleLowerCase', 'toLocaleUpperCase']],
]) {
  for (const m of methods) {
    const original = proto[m];
    Object.defineProperty(proto, m, {
      configurable: true,
      writable: true,
      value: function (...args) {
        record(m);
        return original.apply(this, args);
      },
    });
  }
}
process.on('exit', () => {
  if (process.env.INTL_USES_FILE) writeFileSync(process.env.INTL_USES_FILE, [...uses].join('\n'));
});

/** The part of autocannon 9's API the load benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      requests?: unknown[];
    }
    interface Result {
      errors: number;
      timeouts: number;
      non2xx: number;
    }
    type Instance = EventEmitter & PromiseLike<Result>;
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}

/**
 * Starting the process as a list of named steps, each with its own stop. A step that fails stops
 * every step started before it, last first, and the start fails with one StartFailure naming the
 * step and the reason: main.ts prints its one line, `cannot start <step>: <reason>`.
 */

/** What a step leaves running, and how to stop it. */
export interface Started<T> {
  value: T;
  stop(reason: string): Promise<void> | void;
}

export class StartFailure extends Error {
  constructor(
    readonly step: string,
    readonly reason: string,
    options: { cause: unknown },
  ) {
    super(`cannot start ${step}: ${reason}`, options);
    this.name = 'StartFailure';
  }
}

export interface Steps {
  /** Runs `start`; on failure stops what is running and rejects with a StartFailure for `name`. */
  step<T>(name: string, start: () => Promise<Started<T>> | Started<T>): Promise<T>;
  /** Stops every started step, last first; each stop runs even if one before it failed. */
  stopAll(reason: string): Promise<void>;
}

/** The reason an error gives, without a stack: its message. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `onStopError`: told of a stop that failed (the others still run). */
export function createSteps(onStopError: (step: string, error: unknown) => void): Steps {
  const running: Array<{ name: string; stop: (reason: string) => Promise<void> | void }> = [];
  const stopAll = async (reason: string) => {
    for (let last = running.pop(); last; last = running.pop()) {
      try {
        await last.stop(reason);
      } catch (error) {
        onStopError(last.name, error);
      }
    }
  };
  return {
    async step<T>(name: string, start: () => Promise<Started<T>> | Started<T>): Promise<T> {
      let started: Started<T>;
      try {
        started = await start();
      } catch (error) {
        await stopAll(`cannot start ${name}`);
        throw new StartFailure(name, reasonOf(error), { cause: error });
      }
      running.push({ name, stop: started.stop });
      return started.value;
    },
    stopAll,
  };
}

/** The variables that set a listener's address, e.g. `['HOST', 'PORT']`. */
type AddressVariables = readonly [host: string, port: string];

/** Why a listener could not take its address, in an operator's words, naming the variable that set it. */
export function listenError(error: unknown, host: string, port: number, [hostVar, portVar]: AddressVariables): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new Error(`${host}:${port} is already in use (${portVar})`);
  if (code === 'EACCES') return new Error(`no permission to listen on ${host}:${port} (${portVar})`);
  if (code === 'EADDRNOTAVAIL') return new Error(`${host} is not an address of this machine (${hostVar})`);
  return error instanceof Error ? error : new Error(String(error));
}

import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxLogger } from './types';

/** The user the sandboxed processes run as: nobody, who owns nothing of ours. */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

const UNSHARE = '/usr/bin/unshare';
const SETPRIV = '/usr/bin/setpriv';

/**
 * Inside fresh network, PID and mount namespaces (as root): empty tmpfs over every
 * world-writable directory, so one run can leave no file for the next (they all run as nobody),
 * then drop to nobody for good (no groups, no capabilities, no new privileges) and exec node.
 * The network namespace has only a loopback interface, and it is down: no connection anywhere,
 * not even to the service's own ports on 127.0.0.1. The PID namespace hides the other workers,
 * so a program cannot signal or trace another user's run. Changing the user clears the parent-death
 * signal that --kill-child set, so setpriv sets it again: killing unshare kills node, PID 1 of the
 * namespace, and with it everything the program may have started. `env -i` drops the PWD that
 * `cd` exported.
 */
/** Workers load at a lower priority than runs; the pool raises a worker's priority when it gets a job. */
export const LOADING_NICENESS = 10;

// $KEEP (the interpreter's files) and $NODE_DIR (the node that runs it: npm ci installs Node 24 in
// node_modules) may lie under one of those directories, as a checkout under /tmp does: each is
// bound aside first, onto a tmpfs of this namespace's own at /mnt, and bound back onto the fresh
// tmpfs, read-only.
const ISOLATE_SCRIPT = [
  'mount -t tmpfs -o size=64k tmpfs /mnt && mkdir /mnt/keep /mnt/node &&',
  'mount --bind "$KEEP" /mnt/keep && mount -o remount,bind,ro /mnt/keep &&',
  'mount --bind "$NODE_DIR" /mnt/node && mount -o remount,bind,ro /mnt/node;',
  'for d in /tmp /var/tmp /dev/shm /run/lock; do',
  '  [ -d "$d" ] && mount -t tmpfs -o size=4m,mode=1777,nosuid,nodev tmpfs "$d";',
  'done;',
  '[ -d "$KEEP" ] || { mkdir -p "$KEEP" && mount --bind /mnt/keep "$KEEP"; };',
  '[ -d "$NODE_DIR" ] || { mkdir -p "$NODE_DIR" && mount --bind /mnt/node "$NODE_DIR"; };',
  'cd /tmp &&',
  `exec /usr/bin/env -i /usr/bin/nice -n ${LOADING_NICENESS} ${SETPRIV} --reuid=${SANDBOX_UID} --regid=${SANDBOX_GID} --clear-groups --pdeathsig KILL --no-new-privs --inh-caps=-all --bounding-set=-all -- "$@"`,
].join(' ');

export type IsolationMode = 'namespaces' | 'none';

let warned = false;

/** Namespaces and nobody when we are root and have the tools; else plain processes, said loudly once. */
export function isolationMode(logger: SandboxLogger): IsolationMode {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  let tools = true;
  try {
    accessSync(UNSHARE, constants.X_OK);
    accessSync(SETPRIV, constants.X_OK);
  } catch {
    tools = false;
  }
  if (root && tools) return 'namespaces';
  if (!warned) {
    warned = true;
    logger.warn(
      { root, tools },
      'CodeLab sandbox: not running as root (or unshare/setpriv missing): Python workers run without a network namespace and as the service user; only Node permission flags and an empty environment confine them',
    );
  }
  return 'none';
}

/**
 * Starts `node <nodeArgs>` confined: empty environment, stdio pipes, and the descriptor `input`
 * (a file open for reading) as its fd 3 when given. The parent end of every pipe is ours; the
 * child's death is reported through 'exit'.
 */
export function spawnSandboxed(nodeArgs: string[], mode: IsolationMode, keep: string, input?: number): ChildProcess {
  const stdio: ('pipe' | number)[] = input === undefined ? ['pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', input];
  if (mode === 'namespaces') {
    return spawn(
      UNSHARE,
      [
        '--net',
        '--pid',
        '--fork',
        '--kill-child',
        '--mount-proc',
        '--',
        '/bin/sh',
        '-c',
        ISOLATE_SCRIPT,
        'sh',
        process.execPath,
        ...nodeArgs,
      ],
      {
        env: { KEEP: keep, NODE_DIR: dirname(process.execPath) },
        cwd: '/',
        stdio,
      },
    );
  }
  const scratch = mkdtempSync(join(tmpdir(), 'codelab-'));
  const child = spawn(process.execPath, nodeArgs, { env: {}, cwd: scratch, stdio });
  child.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  return child;
}

// gjs-tap.js: the checks the gjs tests share, reported as TAP
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import System from 'system';

let failures = 0;
let count = 0;

// Runs @fn as test @name: "ok N name", or "not ok N name" and why on stderr.
export function check(name, fn) {
    count++;
    try {
        fn();
        print(`ok ${count} ${name}`);
    } catch (e) {
        failures++;
        print(`not ok ${count} ${name}`);
        printerr(`${name}: ${e}\n${e.stack ?? ''}`);
    }
}

export function assertEqual(actual, expected, what = 'value') {
    const a = JSON.stringify(actual);
    const b = JSON.stringify(expected);
    if (a !== b)
        throw new Error(`${what} is ${a}, expected ${b}`);
}

// Prints the plan and exits, failing when a check failed.
export function finish() {
    print(`1..${count}`);
    System.exit(failures === 0 ? 0 : 1);
}

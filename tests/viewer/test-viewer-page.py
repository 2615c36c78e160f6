#!/usr/bin/python3
# test-viewer-page.py TENSOR_VIEWER: a lesson's interactive page in a real
# browser.
#
# tensor-viewer --export lesson.html writes one self-contained page. Debian's
# headless Chromium opens it, driven over the DevTools protocol on a pipe
# (--remote-debugging-pipe: no network, no extra Python module): real key
# presses step through the view, the status line then reads the address the
# app's own figure writes for that element, the stepped cells are marked, and
# a screenshot shows the storage cells in the colours of the app's PNG of the
# same figure. TAP output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version('GdkPixbuf', '2.0')
from gi.repository import GdkPixbuf  # noqa: E402

viewer = sys.argv[1]
results = []


def check(name, condition, detail=''):
    results.append((bool(condition), name, detail))
    if not condition:
        print(f'# {name}: {detail}', flush=True)


def export(directory, name, *options):
    path = os.path.join(directory, name)
    environment = dict(os.environ)
    environment.pop('DISPLAY', None)
    environment.pop('WAYLAND_DISPLAY', None)
    subprocess.run([viewer, '--lesson', 'transpose-3d', '--view', '2', *options,
                    '--export', path], check=True, env=environment)
    return path


class Browser:
    """Chromium over the DevTools protocol, on fds 3 (to it) and 4 (from it)."""

    def __init__(self, profile):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def plumb():
            # Out of the way first (a pipe may already sit on 3 or 4), then
            # onto 3 and 4, inheritable.
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        chromium = shutil.which('chromium') or shutil.which('chromium-browser')
        self.process = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
             '--disable-extensions', '--remote-debugging-pipe', f'--user-data-dir={profile}',
             'about:blank'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=plumb, close_fds=False)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b''
        self.next_id = 0
        self.events = []
        self.session = None

    def _read_message(self, deadline):
        while b'\0' not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError('Chromium did not answer')
            chunk = os.read(self.from_browser, 65536)
            if not chunk:
                raise EOFError('Chromium closed the pipe')
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(message)

    def call(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        message = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.session is not None:
            message['sessionId'] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b'\0')
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get('id') == self.next_id:
                if 'error' in answer:
                    raise RuntimeError(f'{method}: {answer["error"]}')
                return answer.get('result', {})
            self.events.append(answer)

    def wait_for_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event.get('method') == method:
                    self.events.remove(event)
                    return event
            self.events.append(self._read_message(deadline))

    def evaluate(self, expression):
        result = self.call('Runtime.evaluate', {'expression': expression, 'returnByValue': True})
        return result['result'].get('value')

    def press(self, key, code, key_code, text=None):
        for kind in ('keyDown', 'keyUp'):
            params = {'type': kind, 'key': key, 'code': code,
                      'windowsVirtualKeyCode': key_code, 'nativeVirtualKeyCode': key_code}
            if text is not None and kind == 'keyDown':
                params['text'] = text
            self.call('Input.dispatchKeyEvent', params)

    def close(self):
        try:
            self.call('Browser.close', session=False, timeout=10)
        except (OSError, RuntimeError, TimeoutError, EOFError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


def pixel(pixbuf, x, y):
    channels = pixbuf.get_n_channels()
    data = pixbuf.get_pixels()
    offset = y * pixbuf.get_rowstride() + x * channels
    return tuple(data[offset:offset + 3])


def main():
    if not (shutil.which('chromium') or shutil.which('chromium-browser')):
        print('1..0 # SKIP Chromium is not installed (build-aux/install-deps.sh installs it)')
        return 0

    with tempfile.TemporaryDirectory() as directory:
        page_path = export(directory, 'lesson.html')
        figure_path = export(directory, 'figure.png')
        stepped_svg = export(directory, 'stepped.svg', '--step', '4')
        with open(page_path, encoding='utf-8') as f:
            page = f.read()
        with open(stepped_svg, encoding='utf-8') as f:
            expected_step = re.search(r'>(element \[[^<]*)</text>', f.read()).group(1)

        # Self-contained: nothing is fetched from elsewhere.
        outside = re.findall(r'(?:src|href)\s*=|url\((?!#)|<link|@import', page)
        check('the page loads nothing from elsewhere', not outside, outside)
        check('every address is an SVG namespace',
              set(re.findall(r'https?://[^"\s]*', page)) <= {'http://www.w3.org/2000/svg'})

        browser = Browser(os.path.join(directory, 'profile'))
        try:
            target = browser.call('Target.createTarget', {'url': 'about:blank'}, session=False)
            browser.session = browser.call('Target.attachToTarget',
                                           {'targetId': target['targetId'], 'flatten': True},
                                           session=False)['sessionId']
            browser.call('Emulation.setDeviceMetricsOverride',
                         {'width': 1600, 'height': 1600, 'deviceScaleFactor': 1,
                          'mobile': False})
            browser.call('Page.enable')
            browser.call('Page.navigate', {'url': 'file://' + page_path})
            browser.wait_for_event('Page.loadEventFired')

            status = 'document.getElementById("status").textContent'
            check('the page opens on the lesson\'s view',
                  browser.evaluate('document.querySelector("#views [aria-pressed=true]")'
                                   '.textContent') == 'some_t.transpose(0, 2)')
            check('nothing is stepped at first', browser.evaluate(status) == '',
                  browser.evaluate(status))

            # Five steps: element 4, as the app's figure writes it.
            for _ in range(5):
                browser.press('ArrowRight', 'ArrowRight', 39)
            check('→ steps, and the status reads the app\'s address',
                  browser.evaluate(status) == expected_step,
                  f'{browser.evaluate(status)!r} != {expected_step!r}')
            marked = browser.evaluate(
                'Array.from(document.querySelectorAll(".figure:not([hidden]) .current"))'
                '.map(e => e.getAttribute("data-element") !== null'
                '  ? "element " + e.getAttribute("data-element")'
                '  : "cell " + e.getAttribute("data-cell"))')
            check('the element and its storage cell are marked',
                  sorted(marked) == ['cell 25', 'element 4'], marked)

            browser.press('ArrowLeft', 'ArrowLeft', 37)
            check('← steps back', browser.evaluate(status).startswith('element [0, 1, 0]'),
                  browser.evaluate(status))
            browser.press('End', 'End', 35)
            check('End goes to the last element', browser.evaluate(status).endswith('= 59'),
                  browser.evaluate(status))

            # Another view by its number, and back.
            browser.press('1', 'Digit1', 49, '1')
            check('1 shows the first view',
                  browser.evaluate('document.querySelector(".figure:not([hidden])")'
                                   '.dataset.view') == '0')
            browser.press('2', 'Digit2', 50, '2')
            browser.press('Escape', 'Escape', 27)
            check('Esc clears the step', browser.evaluate(status) == '')

            # The screenshot: the storage cells in the colours of the app's PNG.
            geometry = browser.evaluate(
                'JSON.stringify({svg: document.querySelector(".figure:not([hidden]) svg")'
                '.getBoundingClientRect(), cells: Array.from(document.querySelectorAll('
                '".figure:not([hidden]) [data-cell]")).map(e => [e.x.baseVal.value,'
                ' e.y.baseVal.value])})')
            geometry = json.loads(geometry)
            shot = browser.call('Page.captureScreenshot', {'format': 'png'})
            loader = GdkPixbuf.PixbufLoader()
            loader.write(base64.b64decode(shot['data']))
            loader.close()
            screenshot = loader.get_pixbuf()
            figure = GdkPixbuf.Pixbuf.new_from_file(figure_path)
            left, top = round(geometry['svg']['x']), round(geometry['svg']['y'])
            check('the figure is drawn at its size',
                  abs(geometry['svg']['width'] - figure.get_width()) < 1,
                  (geometry['svg']['width'], figure.get_width()))
            differences = []
            for x, y in geometry['cells']:
                # Left in the cell, halfway down: the first view's stripe, clear
                # of text.
                at = (round(x) + 6, round(y) + 24)
                expected = pixel(figure, *at)
                seen = pixel(screenshot, left + at[0], top + at[1])
                if max(abs(a - b) for a, b in zip(expected, seen)) > 12:
                    differences.append((at, expected, seen))
            check('60 storage cells are compared', len(geometry['cells']) == 60,
                  len(geometry['cells']))
            check('the cells have the app\'s colours', not differences, differences[:4])
        finally:
            browser.close()

    print(f'1..{len(results)}')
    for number, (passed, name, detail) in enumerate(results, 1):
        print(f'{"ok" if passed else "not ok"} {number} - {name}')
    return 0 if all(passed for passed, _, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())

/* The interactive page of a lesson: choose a view, hover a cell or an
 * element to read its address, step through the view's elements in
 * row-major order with the keyboard (→ ← Home End, Space to play, 1–9 for
 * a view, Esc to clear). The data is the page's own JSON. */
'use strict';

(function () {
  const data = JSON.parse(document.getElementById('lesson-data').textContent);
  const figures = Array.from(document.querySelectorAll('.figure'));
  const buttons = Array.from(document.querySelectorAll('#views button'));
  const status = document.getElementById('status');
  let current = data.selected;
  let step = -1;
  let timer = null;

  /* A lesson without views: its storage, nothing to step through. */
  if (data.views.length === 0)
    return;

  /* printf's %s, in order. */
  function format(template, ...values) {
    let i = 0;
    return template.replace(/%s/g, () => String(values[i++]));
  }

  function indices(view, element) {
    const index = new Array(view.sizes.length).fill(0);
    for (let d = view.sizes.length - 1; d >= 0; d--) {
      const size = view.sizes[d];
      index[d] = size > 0 ? element % size : 0;
      element = size > 0 ? Math.floor(element / size) : 0;
    }
    return index;
  }

  /* As the app writes it: "2 + 2*1 + 1*0 = 4", negative strides in
   * parentheses. */
  function address(view, element) {
    const index = indices(view, element);
    let text = String(view.offset);
    let cell = view.offset;
    for (let d = 0; d < index.length; d++) {
      const stride = view.strides[d];
      text += stride < 0 ? ' + (' + stride + ')*' + index[d] : ' + ' + stride + '*' + index[d];
      cell += stride * index[d];
    }
    return { index: '[' + index.join(', ') + ']', formula: text + ' = ' + cell, cell: cell };
  }

  function figure() {
    return figures[current];
  }

  function clearMarks(name) {
    figures.forEach((f) => f.querySelectorAll('.' + name).forEach((e) => e.classList.remove(name)));
  }

  function mark(element, name) {
    const view = data.views[current];
    const where = address(view, element);
    const f = figure();
    const cellName = view.storage === 'copy' ? 'data-copy-cell' : 'data-cell';
    const hits = [f.querySelector('[data-element="' + element + '"]')];
    if (view.storage !== 'other')
      hits.push(f.querySelector('[' + cellName + '="' + where.cell + '"]'));
    hits.forEach((e) => e && e.classList.add(name));
    return where;
  }

  function update() {
    const view = data.views[current];
    clearMarks('current');
    if (step < 0 || view.numel === 0) {
      status.textContent = view.error !== null ? view.error : '';
      return;
    }
    const where = mark(step, 'current');
    status.textContent = format(data.strings.element, where.index, where.formula);
  }

  function show(index) {
    if (index < 0 || index >= data.views.length)
      return;
    current = index;
    step = -1;
    stop();
    figures.forEach((f, i) => { f.hidden = i !== current; });
    buttons.forEach((b, i) => b.setAttribute('aria-pressed', String(i === current)));
    update();
  }

  function move(to) {
    const numel = data.views[current].numel;
    if (numel === 0)
      return;
    step = Math.max(0, Math.min(numel - 1, to));
    update();
  }

  function stop() {
    if (timer !== null)
      clearInterval(timer);
    timer = null;
  }

  function play() {
    if (timer !== null) {
      stop();
      return;
    }
    timer = setInterval(() => {
      const numel = data.views[current].numel;
      if (step >= numel - 1)
        stop();
      else
        move(step + 1);
    }, 600);
  }

  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey)
      return;
    const numel = data.views[current].numel;
    switch (event.key) {
      case 'ArrowRight': case 'ArrowDown': move(step + 1); break;
      case 'ArrowLeft': case 'ArrowUp': move(step - 1); break;
      case 'Home': move(0); break;
      case 'End': move(numel - 1); break;
      case ' ': play(); break;
      case 'Escape': stop(); step = -1; update(); break;
      default:
        if (/^[1-9]$/.test(event.key))
          show(Number(event.key) - 1);
        else
          return;
    }
    event.preventDefault();
  });

  buttons.forEach((b, i) => b.addEventListener('click', () => show(i)));

  /* Hover: what is under the pointer, in words. */
  figures.forEach((f) => {
    f.addEventListener('mouseover', (event) => {
      const target = event.target;
      clearMarks('hover');
      if (target.hasAttribute('data-element')) {
        const where = mark(Number(target.getAttribute('data-element')), 'hover');
        status.textContent = format(data.strings.element, where.index, where.formula);
      } else if (target.hasAttribute('data-cell') || target.hasAttribute('data-copy-cell')) {
        const cell = target.getAttribute('data-cell') || target.getAttribute('data-copy-cell');
        target.classList.add('hover');
        status.textContent = format(data.strings.cell, cell, target.getAttribute('data-value'));
      }
    });
    f.addEventListener('mouseleave', () => { clearMarks('hover'); update(); });
  });

  show(current);
})();

"use strict";
/*
 * The IR's size over the pipeline, drawn above the map's columns (map.js): one step per pass, as wide as its
 * column, at the lines after it; the picked function's own lines as a second line, on a scale of its own (the axis
 * names both tops). An SVG image named "IR size over the pipeline"; its text equivalent is the summary map.js
 * writes (aria-describedby).
 */
const IRTraceMapChart = (() => {
  const HEIGHT = 64, PAD = 4;
  const SVG = "http://www.w3.org/2000/svg";

  /** make: the app's element maker; left: the width of the row headers' column, where the axis is labelled. */
  function create(make, left) {
    const element = make("div", "map-chart");
    const axis = make("div", "map-axis");
    axis.style.width = `${left}px`;
    const doc = element.ownerDocument;
    const svg = doc.createElementNS(SVG, "svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "IR size over the pipeline");
    svg.setAttribute("aria-describedby", "map-summary");
    svg.setAttribute("class", "map-svg");
    element.append(axis, svg);
    const shape = (name, className) => {
      const node = doc.createElementNS(SVG, name);
      node.setAttribute("class", className);
      return node;
    };

    /** figures: {widths per column (0: hidden), total per column, input (lines), own per column or null, ownInput,
     * selected column}. Returns the two scales' tops: {most, ownMost}. */
    function draw({ widths, total, input, own, ownInput, selected }) {
      const width = widths.reduce((sum, w) => sum + w, 0);
      const shown = widths.map((w, c) => c).filter(c => widths[c]);
      const most = Math.max(1, input, ...shown.map(c => total[c]));
      // the picked function on a scale of its own: on the IR's, 17 lines of 1,149 would lie flat
      const ownMost = own ? Math.max(1, ownInput, ...shown.map(c => own[c])) : 1;
      const y = (lines, top) => (HEIGHT - PAD - (HEIGHT - 2 * PAD) * lines / top).toFixed(1);
      const steps = (values, first, top) => {
        let x = 0, path = `M0 ${y(first, top)}`;
        widths.forEach((w, c) => {
          if (!w) return;
          path += ` L${x} ${y(values[c], top)} L${x + w} ${y(values[c], top)}`;
          x += w;
        });
        return path;
      };
      svg.setAttribute("width", String(width));
      svg.setAttribute("height", String(HEIGHT));
      svg.setAttribute("viewBox", `0 0 ${Math.max(width, 1)} ${HEIGHT}`);
      const area = shape("path", "map-area");
      area.setAttribute("d", `${steps(total, input, most)} L${width} ${HEIGHT} L0 ${HEIGHT} Z`);
      const line = shape("path", "map-line");
      line.setAttribute("d", steps(total, input, most));
      const parts = [area, line];
      if (own) {
        const mine = shape("path", "map-own");
        mine.setAttribute("d", steps(own, ownInput, ownMost));
        parts.push(mine);
      }
      if (selected >= 0 && widths[selected]) {
        const x = widths.slice(0, selected).reduce((sum, w) => sum + w, 0);
        const mark = shape("rect", "map-selected");
        mark.setAttribute("x", String(x));
        mark.setAttribute("y", "0");
        mark.setAttribute("width", String(widths[selected]));
        mark.setAttribute("height", String(HEIGHT));
        parts.unshift(mark);
      }
      svg.replaceChildren(...parts);
      const number = new Intl.NumberFormat("en-US").format;
      const top = own ? `${number(most)} lines; dashed: ${number(ownMost)}` : `${number(most)} lines`;
      const key = own ? "IR lines after each pass; dashed: the picked function's, on its own scale" : "IR lines after each pass";
      axis.replaceChildren(make("span", "map-axis-top", top), make("span", "map-axis-key", key), make("span", "map-axis-zero", "0"));
      return { most, ownMost };
    }

    return { element, draw };
  }

  return { create };
})();

/**
 * Names each body cell after its column (data-label), so that on a narrow screen, where base.css
 * shows a row as a card with no header row, every value still says what it is.
 */
export function labelCells(table: HTMLTableElement): void {
  const names = [...table.tHead!.rows[0].cells].map((th) => th.textContent!.trim());
  for (const body of table.tBodies)
    for (const tr of body.rows) for (const td of tr.cells) td.dataset.label = names[td.cellIndex] ?? '';
}

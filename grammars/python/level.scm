; The dump level a PyPTO snapshot was printed at (PassDumpLevel). Capture names, the contract with
; formats/pypto.py: @explicit for text only EXPLICIT prints, @implicit for types whose layout or
; window buffer CONCISE leaves out (seen alone, they mean CONCISE; on a CONCISE dump, a pass that
; changes a line naming one gets the advice to re-dump at EXPLICIT).

; A tile's full view (TileView(..., fractal=N)) and a distributed tensor's window buffer.
((keyword_argument name: (identifier) @explicit) (#eq? @explicit "fractal"))
((string) @explicit (#match? @explicit "^\"window_buffer="))

((subscript value: (attribute attribute: (identifier) @implicit))
  (#any-of? @implicit "Tile" "DistributedTensor"))

; The parts of such a type CONCISE prints, but for where it is placed (pl.MemRef(name, address, size)): a
; change that leaves them as they were (an address, a buffer reused) changes no layout CONCISE hides.
((subscript value: (attribute attribute: (identifier) @_type) subscript: (_) @implicit.part)
  (#any-of? @_type "Tile" "DistributedTensor")
  (#not-match? @implicit.part "^([A-Za-z_][A-Za-z0-9_]*[.])*MemRef[(]"))

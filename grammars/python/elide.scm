; Types the viewer may elide ("Elide types"): an EXPLICIT PyPTO dump prints every tile's full type
; (pl.Tile[[16, 256], pl.FP32, pl.MemRef(...), pl.TileView(...)]) on almost every line, so a changed line's
; start and its changed words rarely fit one screen. A capture on one line, long enough (highlight.py's
; ELIDE_MIN_CHARS) and unchanged, shows as an expandable "…": the outermost one no change touches.
(assignment type: (type) @elide)
(typed_parameter type: (type) @elide)
(typed_default_parameter type: (type) @elide)
(function_definition return_type: (type) @elide)

; Inside a type, the arguments of its calls (pl.MemRef(...), pl.TileView(...)): when a change touches the
; type, the unchanged parts of it can still be elided.
(subscript (call arguments: (argument_list) @elide))

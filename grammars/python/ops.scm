; The ops a snapshot runs, counted per pass ("what a pass did, in one line": pl.tile.load +32): a call of a
; dotted name (pl.tile.load, pl.system.aic_initialize_pipe) that is a statement of its own, the value of an
; assignment, or what a function returns. Calls inside another expression (pl.const(0, pl.INT32) as an
; argument, pl.MemRef(...) inside a type, pl.range(...) of a loop) are not ops of the program, nor are calls
; of the program's own functions (self.gate_proj(...)): those are the map's rows. One capture per op:
; highlight.py's walk gives each row's @op names to opcounts.py.
((expression_statement (call function: (attribute object: (_) @_object) @op)) (#not-eq? @_object "self"))
((assignment right: (call function: (attribute object: (_) @_object) @op)) (#not-eq? @_object "self"))
((return_statement (call function: (attribute object: (_) @_object) @op)) (#not-eq? @_object "self"))

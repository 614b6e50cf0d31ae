; Syntax highlighting of the printed IR. Capture names become CSS classes (hl-<name>).
; When two captures cover the same text, the pattern written first wins.

(comment) @comment
(string) @string

(decorator "@" @decorator)
(decorator [(identifier) (attribute)] @decorator)
(decorator (call function: (_) @decorator))

(function_definition name: (identifier) @function)
(class_definition name: (identifier) @type)

(call function: (identifier) @call)
(call function: (attribute attribute: (identifier) @call))

((attribute attribute: (identifier) @type)
  (#match? @type "^[A-Z][A-Za-z0-9_]*$"))

[(true) (false) (none)] @constant
[(integer) (float)] @number

; `self` where it is written in the IR: first parameter and receiver (matching every identifier costs a
; quarter of the highlighting time on a 20,000-line snapshot).
((parameters (identifier) @builtin) (#eq? @builtin "self"))
((attribute object: (identifier) @builtin) (#eq? @builtin "self"))

[
  "def" "class" "return" "if" "elif" "else" "for" "in" "while" "with" "as"
  "import" "from" "pass" "break" "continue" "yield" "lambda" "and" "or" "not"
  "is" "try" "except" "finally" "raise" "assert" "del" "global" "nonlocal"
  "async" "await"
] @keyword

; Every other name (a value, a buffer such as mem_vec_5, a module): last, so the patterns above win. The viewer
; follows a clicked name through the passes by these spans (static/names.js).
(identifier) @variable

; Text whose lines keep their own indentation: a line that starts inside one of these nodes says
; nothing about where a block ends (a comment may sit at any column; a string's continuation lines
; are the string's content). Capture name, the contract with structure.py: @free.

(comment) @free
(string) @free

"""``evm384 report``: one page with the whole answer, as self-contained HTML and as
Markdown: every operation's gas on each instruction set beside its precompile, its time on
the fast engine beside the native library's, Mgas/s against 100, the two-pairing check in
every implementation, and its flame graph.

- :mod:`.collect`: the measurements, from the commands' own code (a JSON-ready dict);
- :mod:`.natives`: the native library doing each precompile's job; :mod:`.peers`: the
  BLS12-381 libraries' pairing checks;
- :mod:`.commit`: the commit it was made at;
- :mod:`.tables`: the page's tables as cells; :mod:`.charts`: its charts, drawn by
  :mod:`.svg`; :mod:`.page`: the blocks in order; :mod:`.html`, :mod:`.markdown`: the two
  renderings.
"""

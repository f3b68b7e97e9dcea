"""Tournaments in a group (issue 29 "Tournaments", docs/season.md "Torneios").

Pure parts: :mod:`.pairing` (round robin by the circle method, a seeded knockout
bracket), :mod:`.standings` (the table and its tie-break chain), :mod:`.model` (the
stored record) and :mod:`.flow` (sign-up, calls, results, W.O., the champion) change no
store; :mod:`.calls` is the service's part, :mod:`.texts` and :mod:`.picture` what the
group sees."""

"""What the pages are made of, from the service's plain data: the board's
buttons and what each would do (board.py), a finished game's review
(review.py), the SVG charts and QR codes (charts.py), every form a page
posts (forms.py), the game the home page resumes (resume.py), and every
template filter and global (template_helpers.py). It imports the wording
and the plumbing, never a view or the guard; no store, no transaction."""

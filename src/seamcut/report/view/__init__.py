"""``seamcut view``: static pages that show where every cut falls, on the page, and what each
question got back (``questions``), with a local search playground (``serve``)."""

"""`memkit import` and `--harvest`: agents' instruction files and their own memories become
memories and drafts (importer, harvest); the files are found (sources, places), cut into
sections (markdown) with their scope (scope), and adopted (rewrite).
"""

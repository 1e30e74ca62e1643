"""`python -m campaign_rules`: the same command line as `campaign-rules`."""

from campaign_rules._cli import main

raise SystemExit(main())

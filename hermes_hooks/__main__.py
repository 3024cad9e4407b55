from hermes_hooks.cli import main

raise SystemExit(main())

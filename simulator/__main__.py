from simulator.cli import main

raise SystemExit(main())

"""Echo CLI: a host that does not exist, added the way a seventh host is added (this folder, and
its name in ``hosts.FOLDERS``), so a test can run a scenario on it."""

from headwater.cli.main import entry

entry()

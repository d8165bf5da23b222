"""A plugin whose import fails: the server must report it by name and go on."""

raise RuntimeError("this plugin is broken on purpose")

# Where the plugin runs from and keeps its data, for the scenario to check; a start counted in
# the plugin's own data folder; and a note for the model (SessionStart's stdout is context).
printf 'root=%s\ndata=%s\n' "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" > plugin-env.txt
echo start >> "$CLAUDE_PLUGIN_DATA/starts"
echo "the guard plugin is on: rm -rf is refused"

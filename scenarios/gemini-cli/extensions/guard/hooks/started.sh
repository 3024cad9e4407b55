# Where the extension runs from ($0, after Gemini CLI put its path in the command) and the
# workspace it was given, for the scenario to check.
printf 'script=%s\nworkspace=%s\n' "$0" "$1" > extension-env.txt

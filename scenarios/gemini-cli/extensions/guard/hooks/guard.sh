# Deny any shell command with rm -rf in it; the model gets the reason as the tool's error.
case "$(cat)" in
  *'rm -rf'*) printf '%s' '{"decision": "deny", "reason": "rm -rf is not allowed here"}' ;;
esac
exit 0

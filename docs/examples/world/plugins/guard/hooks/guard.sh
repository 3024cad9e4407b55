# Refuse any Bash command with rm -rf in it, as a permission decision the model reads.
case "$(cat)" in
  *'rm -rf'*)
    printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "deny", "permissionDecisionReason": "rm -rf is not allowed here"}}'
    ;;
esac
exit 0

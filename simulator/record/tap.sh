# hooksim's tap: run one hook exactly as the host would, and log the run.
#
#   /bin/sh tap.sh tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL...
#
# hooksim record start writes it in front of every command hook of a config (behind exec for
# a host that runs the line with a shell, so the host's shell becomes the tap), and hooksim tap
# runs it by hand. It is POSIX sh and starts no interpreter: a tapped hook costs a shell, three
# tees and a few forks more than the hook alone (benchmarks/bench_tap.py). The word "tap"
# before --log marks a tapped command: hooksim record start never taps a config twice.
#
# ORIGINAL is what the host would have run: for Hermes the command's words, a leading ~
# expanded; for the other hosts one argument, the command line, run through that host's shell
# (the cases below; tests keep them equal to hooksim.record.tap.SHELLS).
#
# Transparent: the hook gets the same stdin bytes (through a pipe, as from the host), argv,
# environment and working directory; the host gets its stdout and stderr as they come, and its
# exit status; a hook killed by a signal kills the tap with the same signal; TERM, INT and HUP
# sent to the tap are passed on to the hook. Every name below starts with tap_ (or is a
# function's): a variable of the host's environment with one of them would reach the hook.
#
# Each run is a set of files in DIR named by its number N, taken in the order runs start:
#   N.ctx   NUL-separated name=value fields: tool, event, clock (hooksim's virtual clock, when
#           the hook runs under hooksim), cwd, first (the original's first word, as
#           configured), argv (each word of the hook's), env (NAME=value of each host
#           variable, secret-looking ones redacted); its mtime is the run's start
#   N.in  N.out  N.err   stdin, stdout and stderr, byte for byte
#   N.st    the hook's pid while it runs, then "exit CODE" or "signal NUMBER"
#   N.json  written last, so only finished runs have one: {"tap": "sh", "exit_code": ...,
#           "signal": ...}; its mtime is the run's end
# hooksim.record.recording.load_runs reads them back.

tap_usage='usage: hooksim tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL...'
tap_usage_error() {
	printf 'hooksim tap: %s\n%s\n' "$1" "$tap_usage" >&2
	exit 2
}

if [ -n "${BASH_VERSION-}" ]; then # /bin/sh is bash
	shopt -s expand_aliases 2>/dev/null # for the environment's list, below
	SHLVL=$((SHLVL - 1))                # the hook's shell counts the level the tap took
fi
[ "${1-}" = tap ] && shift
tap_split=
for tap_word; do
	if [ "$tap_word" = -- ]; then tap_split=1 && break; fi
done
[ -n "$tap_split" ] || tap_usage_error "the original command goes after '--'"
tap_log= tap_tool=hermes tap_event= tap_has_event=
while [ "$1" != -- ]; do
	case $1 in
	--log | --tool | --event)
		[ "$2" != -- ] || tap_usage_error "unknown option or missing value: $1"
		;;
	*) tap_usage_error "unknown option or missing value: $1" ;;
	esac
	case $1 in
	--log) tap_log=$2 ;;
	--tool) tap_tool=$2 ;;
	--event) tap_event=$2 tap_has_event=1 ;;
	esac
	shift 2
done
shift
[ -n "$tap_log" ] || tap_usage_error "--log DIR is required"
case $tap_tool in
hermes | claude-code | codex | cursor | gemini-cli) ;;
*) tap_usage_error "unknown tool '$tap_tool'" ;;
esac
if [ $# -eq 0 ] || { [ "$tap_tool" != hermes ] && [ $# -ne 1 ]; }; then
	tap_usage_error "after '--': the command's words (hermes) or one command line (other hosts)"
fi

# The process the host would have started, in "$@" from here on.
tap_first=$1
case $tap_tool in
hermes)
	# Hermes expands a leading ~ (os.path.expanduser): ~ or ~user, up to the first /.
	tap_word=$1
	case $tap_word in
	"~"*)
		tap_prefix=${tap_word%%/*}
		case $tap_prefix in
		*[!A-Za-z0-9._~-]* | "~"*"~"*) ;;
		*)
			eval "tap_home=$tap_prefix" # a checked user name: the shell's own tilde expansion
			case $tap_home in
			"~"*) ;; # no such user: left as it was, as Python leaves it
			*)
				while [ "$tap_home" != "${tap_home%/}" ]; do tap_home=${tap_home%/}; done
				tap_word=$tap_home${tap_word#"$tap_prefix"}
				[ -n "$tap_word" ] || tap_word=/
				;;
			esac
			;;
		esac
		;;
	esac
	shift
	set -- "$tap_word" "$@"
	;;
claude-code | cursor) set -- /bin/sh -c "$1" ;;
codex) set -- /bin/bash -c "$1" ;;
gemini-cli) set -- bash -c "$1" ;;
esac

# This run's number: the first free one. Runs take numbers in order, so the numbers in use are
# 1..M, and a binary search finds M+1; noclobber (set -C) makes taking it atomic against a run
# that starts at the same time.
[ -d "$tap_log" ] || mkdir -p -- "$tap_log" 2>/dev/null
set -C
tap_lo=0 tap_n=1
while [ -e "$tap_log/$tap_n.ctx" ]; do tap_lo=$tap_n tap_n=$((tap_n * 2)); done
while [ $((tap_n - tap_lo)) -gt 1 ]; do
	tap_mid=$(((tap_lo + tap_n) / 2))
	if [ -e "$tap_log/$tap_mid.ctx" ]; then tap_lo=$tap_mid; else tap_n=$tap_mid; fi
done
until { true >"$tap_log/$tap_n.ctx"; } 2>/dev/null; do
	if [ ! -e "$tap_log/$tap_n.ctx" ]; then
		printf 'hooksim tap: cannot write to %s; the hook runs unrecorded\n' "$tap_log" >&2
		exec "$@"
	fi
	tap_n=$((tap_n + 1))
done
tap_f=$tap_log/$tap_n

# The commands the job below runs, found once here (exec searches the whole PATH for each).
# The tees run with LC_ALL=C: loading the user's locale is half of a tee's start.
{ command -v tee && command -v env; } >|"$tap_f.st" 2>/dev/null
tap_tee= tap_env=
{ read -r tap_tee && read -r tap_env; } <"$tap_f.st" 2>/dev/null

# The hook starts in a background job (below), which POSIX shells start with INT and QUIT
# ignored; it gets them back as the host gave them: bash puts them back with trap -, other
# shells cannot, so GNU env (coreutils 8.31 or later; probed once per log folder) does. Without
# it the hook keeps them ignored.
tap_reset=
if [ -z "${BASH_VERSION-}" ]; then
	# Those the host did not start the tap with ignored: each one, sent to the tap, runs its trap.
	tap_given=
	trap 'tap_given=INT' INT
	kill -INT $$
	trap 'tap_given=${tap_given:+$tap_given,}QUIT' QUIT
	kill -QUIT $$
	trap - QUIT
	if [ -z "$tap_given" ] || [ -e "$tap_log/.tap-env-keeps-signals" ]; then
		:
	elif [ -e "$tap_log/.tap-env-resets-signals" ]; then
		tap_reset=1
	elif "${tap_env:-env}" --default-signal=INT true 2>/dev/null; then
		: >|"$tap_log/.tap-env-resets-signals"
		tap_reset=1
	else
		: >|"$tap_log/.tap-env-keeps-signals"
	fi
fi

# Signals for the hook: passed on once its pid is known (the job below writes it to N.st).
tap_hook= tap_job= tap_pending= tap_signalled=
tap_pass_on() {
	[ -n "$tap_job" ] && [ -n "$tap_pending" ] || return 0
	while [ -z "$tap_hook" ]; do
		tap_what=
		{ read -r tap_what tap_pid <"$tap_f.st"; } 2>/dev/null
		case $tap_what in
		pid) tap_hook=$tap_pid ;;
		exit | signal) tap_pending= && return 0 ;; # the hook is done already
		*) kill -0 "$tap_job" 2>/dev/null || return 0 ;;
		esac
	done
	for tap_sig in $tap_pending; do kill -s "$tap_sig" "$tap_hook" 2>/dev/null; done
	tap_pending=
}
tap_received() {
	tap_pending="$tap_pending $1" tap_signalled=1
	tap_pass_on
}
trap 'tap_received TERM' TERM
trap 'tap_received INT' INT
trap 'tap_received HUP' HUP

# What the hook was started with. Only the host's variables are written (CLAUDE_, CODEX_,
# CURSOR_, GEMINI_, HERMES_; a name with one of hooksim.record.redact.SECRET_NAMES in it has
# its value redacted, and record stop redacts secret-shaped values afterwards): the shell lists them with export -p, quoted, and reads the
# list back with export aliased to tap_host_variable, which gets each NAME=value as one word,
# whatever it holds.
tap_host_variable() {
	for tap_pair; do
		case $tap_pair in
		CLAUDE_*=* | CODEX_*=* | CURSOR_*=* | GEMINI_*=* | HERMES_*=*)
			tap_name=${tap_pair%%=*}
			case $tap_name in
			*[Kk][Ee][Yy]* | *[Tt][Oo][Kk][Ee][Nn]* | *[Ss][Ee][Cc][Rr][Ee][Tt]* | \
				*[Pp][Aa][Ss][Ss]* | *[Pp][Ww][Dd]* | *[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll]* | \
				*[Aa][Uu][Tt][Hh]* | *[Cc][Oo][Oo][Kk][Ii][Ee]* | *[Pp][Rr][Ii][Vv][Aa][Tt][Ee]* | \
				*[Pp][Ee][Mm]* | *[Bb][Ee][Aa][Rr][Ee][Rr]* | *[Ss][Ii][Gg][Nn]*)
				tap_pair="$tap_name=<redacted>"
				;;
			esac
			printf 'env=%s\0' "$tap_pair"
			;;
		esac
	done
}
tap_context() {
	printf 'tool=%s\0' "$tap_tool"
	[ -z "$tap_has_event" ] || printf 'event=%s\0' "$tap_event"
	# Under hooksim a hook reads a virtual wall clock, from this instant on: so does the record.
	[ -z "${HOOKSIM_NOW-}" ] || printf 'clock=%s\0' "$HOOKSIM_NOW"
	cd -P . 2>/dev/null # the physical directory, as the hook's getcwd() sees it
	printf 'cwd=%s\0' "$PWD"
	printf 'first=%s\0' "$tap_first" # the original's first word, as configured
	for tap_word; do printf 'argv=%s\0' "$tap_word"; done
	alias export=tap_host_variable declare=tap_host_variable
	eval "$(export -p)"
}

# The hook, and tees copying its streams both to the host and to the log, as a background job:
# the tap waits for it with the wait builtin, which a signal interrupts (a foreground command
# would hold the tap's traps until it ends). The tees ignore INT, QUIT, TERM and HUP: they end
# when their input does, so a host that signals the whole process group does not cut the
# hook's output short. The hook's parent writes the record's context while the hook runs.
# fds: 6 the host's stdin, 7 the host's stderr, 8 and 9 the pipes to the tees of the hook's
# stdout and stderr.
exec 6<&0 7>&2
{
	{
		trap : TERM HUP # caught, not ignored: the hook starts with them as the host gave them
		{
			trap '' PIPE TERM HUP # the hook may leave its stdin unread: read it all for the log
			LC_ALL=C exec "${tap_tee:-tee}" -- "$tap_f.in"
		} <&6 2>/dev/null 6<&- 7>&- 8>&- 9>&- | {
			trap - INT QUIT
			exec ${tap_reset:+"${tap_env:-env}" "--default-signal=$tap_given"} "$@"
		} >&8 2>&9 6<&- 7>&- 8>&- 9>&- &
		tap_pid=$!
		exec >/dev/null 9>&- # the stderr tee ends with the hook's stderr
		printf 'pid %s\n' "$tap_pid" >|"$tap_f.st"
		tap_context "$@" >|"$tap_f.ctx"
		while :; do
			wait "$tap_pid"
			tap_code=$?
			# Interrupted by a caught signal while the hook still runs: wait again.
			if [ "$tap_code" -gt 128 ] && kill -0 "$tap_pid" 2>/dev/null; then continue; fi
			break
		done
		# Over 128: killed by a signal, or an exit code that high; the job list says which
		# (dash: "Done(143)" or "Terminated"; a shell that lists nothing: a signal).
		tap_how=exit
		if [ "$tap_code" -gt 128 ]; then
			tap_line=
			jobs >|"$tap_f.st"
			{ read -r tap_line <"$tap_f.st"; } 2>/dev/null
			case $tap_line in
			*Done* | *Exit*) ;;
			*) tap_how=signal tap_code=$((tap_code - 128)) ;;
			esac
		fi
		printf '%s %s\n' "$tap_how" "$tap_code" >|"$tap_f.st"
	} 9>&1 2>/dev/null | {
		trap '' TERM HUP
		LC_ALL=C exec "${tap_tee:-tee}" -- "$tap_f.err" >&7 2>/dev/null 6<&- 7>&- 8>&-
	}
} 8>&1 2>/dev/null | {
	trap '' TERM HUP
	LC_ALL=C exec "${tap_tee:-tee}" -- "$tap_f.out" 2>/dev/null 6<&- 7>&-
} &
tap_job=$!
exec 6<&- 7>&-
tap_pass_on # a signal that came before the job started

# Until the job ends; each signal the tap gets interrupts the wait once.
while :; do
	tap_signalled=
	wait 2>/dev/null
	[ -n "$tap_signalled" ] || break
done

tap_how= tap_code=
{ read -r tap_how tap_code <"$tap_f.st"; } 2>/dev/null
case $tap_how in
exit) printf '{"tap": "sh", "exit_code": %s, "signal": null}\n' "$tap_code" >|"$tap_f.json" ;;
signal) printf '{"tap": "sh", "exit_code": null, "signal": %s}\n' "$tap_code" >|"$tap_f.json" ;;
*)
	# The log could not be written, so neither could the hook's status.
	printf 'hooksim tap: cannot write to %s; the hook'"'"'s exit status is lost\n' "$tap_log" >&2
	tap_how=exit tap_code=1
	;;
esac 2>/dev/null
if [ "$tap_how" = signal ]; then
	# Killed the same way (without a core file of the tap's own).
	trap - "$tap_code"
	ulimit -c 0 2>/dev/null
	kill "-$tap_code" $$
	exit $((128 + tap_code)) # the signal was ignored when the host started the tap
fi
exit "$tap_code"

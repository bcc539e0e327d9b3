# shellcheck shell=bash
# The guest's options: harness.NAME=VALUE on the kernel command line (a
# namespace of its own: the kernel ignores it, and no built-in parameter
# uses it).  Sourced by the guest scripts.

opt() { # opt NAME DEFAULT: the last harness.NAME=value on the command line wins
	local a v=$2
	for a in $(cat /proc/cmdline); do
		case $a in "harness.$1="*) v=${a#*=} ;; esac
	done
	echo "$v"
}

#!/bin/sh
# dracut cmdline hook: replace dracut's init with the test runner.
exec /rwsem-unfair/init.sh

#!/bin/sh
# The read replica of the `replica` profile: on first start, copies the primary with pg_basebackup
# (-R writes standby.signal and primary_conninfo), then runs as a hot standby streaming from it.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h postgres -U postgres -q; do sleep 1; done
  pg_basebackup -h postgres -U postgres -D "$PGDATA" -R -X stream
  chmod 700 "$PGDATA"
fi
exec postgres -c hot_standby=on

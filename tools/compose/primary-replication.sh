#!/bin/sh
# Runs once, when the primary's data folder is created (/docker-entrypoint-initdb.d): lets the
# streaming replica of the `replica` profile connect for replication on the compose network.
set -e
echo "host replication all all trust" >> "$PGDATA/pg_hba.conf"

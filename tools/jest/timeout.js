// Integration tests talk to real Postgres and Redis: on a busy 2-core machine a test database and a
// file load can take longer than Jest's default of 5 s.
jest.setTimeout(30_000);

-- The simulated control plane's session: a tick never waits long behind an
-- operator's transaction; it gives up and tries again next round.
SET lock_timeout = '2s';
SET statement_timeout = '10s';
SET application_name = 'pushleft-sandbox-simulation';

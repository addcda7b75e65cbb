-- Issue 23: a server's featured game (`/server feature`), shown first in `/games` there.
ALTER TABLE servers ADD COLUMN featured_game INTEGER;

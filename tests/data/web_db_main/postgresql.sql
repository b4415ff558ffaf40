-- made by make_fixture.py from main's store.py
-- statement
CREATE TABLE tables (
	id SERIAL NOT NULL, 
	code VARCHAR(16) NOT NULL, 
	game VARCHAR(32) NOT NULL, 
	params JSON NOT NULL, 
	seed BIGINT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	version INTEGER NOT NULL, 
	host_token VARCHAR(64) NOT NULL, 
	public BOOLEAN NOT NULL, 
	turn_clock FLOAT, 
	away_timeout FLOAT NOT NULL, 
	alertness FLOAT, 
	bot_pace VARCHAR(8) DEFAULT 'normal' NOT NULL, 
	hints BOOLEAN DEFAULT true NOT NULL, 
	rematch_of VARCHAR(16), 
	rematch VARCHAR(16), 
	created VARCHAR(32) NOT NULL, 
	updated VARCHAR(32) NOT NULL, 
	PRIMARY KEY (id)
)
-- statement
CREATE UNIQUE INDEX ix_tables_code ON tables (code)
-- statement
CREATE INDEX ix_tables_status ON tables (status)
-- statement
CREATE TABLE actions (
	id SERIAL NOT NULL, 
	table_id INTEGER NOT NULL, 
	idx INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	notation VARCHAR(200) NOT NULL, 
	by VARCHAR(16) NOT NULL, 
	created VARCHAR(32) NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (table_id, idx), 
	FOREIGN KEY(table_id) REFERENCES tables (id)
)
-- statement
CREATE INDEX ix_actions_table_id ON actions (table_id)
-- statement
CREATE TABLE retired_tokens (
	id SERIAL NOT NULL, 
	table_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	token VARCHAR(64) NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(table_id) REFERENCES tables (id), 
	UNIQUE (token)
)
-- statement
CREATE INDEX ix_retired_tokens_table_id ON retired_tokens (table_id)
-- statement
CREATE TABLE seats (
	id SERIAL NOT NULL, 
	table_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	bot_kind VARCHAR(32), 
	token VARCHAR(64), 
	joined BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (table_id, seat), 
	FOREIGN KEY(table_id) REFERENCES tables (id), 
	UNIQUE (token)
)
-- statement
CREATE INDEX ix_seats_table_id ON seats (table_id)
-- statement
INSERT INTO tables (id, code, game, params, seed, status, version, host_token, public, turn_clock, away_timeout, alertness, bot_pace, hints, rematch_of, rematch, created, updated) VALUES (1, 'RDQRAW', 'dice', '{}', 1, 'waiting', 0, 'Ktx6fd0I0mhkTN7QuPj0Tw', true, NULL, 60.0, NULL, 'normal', true, NULL, NULL, '2026-12-01T20:54:38+00:00', '2026-12-01T20:54:38+00:00')
-- statement
INSERT INTO tables (id, code, game, params, seed, status, version, host_token, public, turn_clock, away_timeout, alertness, bot_pace, hints, rematch_of, rematch, created, updated) VALUES (2, 'HU6YVS', 'dice', '{"dice": ["LL3456", "12LL56", "1234LL"], "end_score": 40, "starting_seat": 0}', 20261201, 'playing', 12, 'zBqdTuXIqVHU3ioF_gubgQ', false, NULL, 600.0, NULL, 'fast', false, NULL, NULL, '2026-12-01T20:54:39+00:00', '2026-12-01T20:54:39+00:00')
-- statement
SELECT setval(pg_get_serial_sequence('tables', 'id'), (SELECT max(id) FROM tables))
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (1, 2, 0, -1, 'deal 12445L', 'chance', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (2, 2, 1, -1, 'deal 235LLL', 'chance', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (3, 2, 2, 0, 'roll', 'human', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (4, 2, 3, -1, 'dice L 2 3', 'chance', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (5, 2, 4, 0, 'discard 2 L', 'human', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (6, 2, 5, 1, 'roll', 'human', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (7, 2, 6, -1, 'dice 5 1 4', 'chance', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (8, 2, 7, 1, 'discard 5', 'human', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (9, 2, 8, 0, 'roll', 'human', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (10, 2, 9, -1, 'dice L 2 1', 'chance', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (11, 2, 10, 0, 'discard 1', 'human', '2026-12-01T20:54:39+00:00')
-- statement
INSERT INTO actions (id, table_id, idx, player, notation, by, created) VALUES (12, 2, 11, 1, 'roll', 'human', '2026-12-01T20:54:39+00:00')
-- statement
SELECT setval(pg_get_serial_sequence('actions', 'id'), (SELECT max(id) FROM actions))
-- statement
INSERT INTO retired_tokens (id, table_id, seat, token) VALUES (1, 1, 1, 'kzCCp_Uj0Ft30v1ZLcEHHg')
-- statement
SELECT setval(pg_get_serial_sequence('retired_tokens', 'id'), (SELECT max(id) FROM retired_tokens))
-- statement
INSERT INTO seats (id, table_id, seat, kind, name, bot_kind, token, joined) VALUES (1, 1, 0, 'human', '', NULL, 'A7A59LzRHfQ5_xQTN1_REg', false)
-- statement
INSERT INTO seats (id, table_id, seat, kind, name, bot_kind, token, joined) VALUES (2, 1, 1, 'human', 'Robin', NULL, '6RiX_NqmlKXGLVIXBnPDAg', true)
-- statement
INSERT INTO seats (id, table_id, seat, kind, name, bot_kind, token, joined) VALUES (3, 1, 2, 'human', '', NULL, 'aW4xDI5umrN8xLlscpTQ2w', false)
-- statement
INSERT INTO seats (id, table_id, seat, kind, name, bot_kind, token, joined) VALUES (4, 2, 0, 'human', 'Ada', NULL, 'iUol2ZB2Pzb85sAdwOLnxw', true)
-- statement
INSERT INTO seats (id, table_id, seat, kind, name, bot_kind, token, joined) VALUES (5, 2, 1, 'human', 'Bo', NULL, 'y9AssTfNbxo-Bs6eIQvzcA', true)
-- statement
SELECT setval(pg_get_serial_sequence('seats', 'id'), (SELECT max(id) FROM seats))

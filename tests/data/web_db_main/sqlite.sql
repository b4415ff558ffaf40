BEGIN TRANSACTION;
CREATE TABLE actions (
	id INTEGER NOT NULL, 
	table_id INTEGER NOT NULL, 
	idx INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	notation VARCHAR(200) NOT NULL, 
	"by" VARCHAR(16) NOT NULL, 
	created VARCHAR(32) NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (table_id, idx), 
	FOREIGN KEY(table_id) REFERENCES tables (id)
);
INSERT INTO "actions" VALUES(1,2,0,-1,'deal 12445L','chance','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(2,2,1,-1,'deal 235LLL','chance','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(3,2,2,0,'roll','human','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(4,2,3,-1,'dice L 2 3','chance','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(5,2,4,0,'discard 2 L','human','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(6,2,5,1,'roll','human','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(7,2,6,-1,'dice 5 1 4','chance','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(8,2,7,1,'discard 5','human','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(9,2,8,0,'roll','human','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(10,2,9,-1,'dice L 2 1','chance','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(11,2,10,0,'discard 1','human','2026-12-01T20:54:39+00:00');
INSERT INTO "actions" VALUES(12,2,11,1,'roll','human','2026-12-01T20:54:39+00:00');
CREATE TABLE retired_tokens (
	id INTEGER NOT NULL, 
	table_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	token VARCHAR(64) NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(table_id) REFERENCES tables (id), 
	UNIQUE (token)
);
INSERT INTO "retired_tokens" VALUES(1,1,1,'kzCCp_Uj0Ft30v1ZLcEHHg');
CREATE TABLE seats (
	id INTEGER NOT NULL, 
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
);
INSERT INTO "seats" VALUES(1,1,0,'human','',NULL,'A7A59LzRHfQ5_xQTN1_REg',0);
INSERT INTO "seats" VALUES(2,1,1,'human','Robin',NULL,'6RiX_NqmlKXGLVIXBnPDAg',1);
INSERT INTO "seats" VALUES(3,1,2,'human','',NULL,'aW4xDI5umrN8xLlscpTQ2w',0);
INSERT INTO "seats" VALUES(4,2,0,'human','Ada',NULL,'iUol2ZB2Pzb85sAdwOLnxw',1);
INSERT INTO "seats" VALUES(5,2,1,'human','Bo',NULL,'y9AssTfNbxo-Bs6eIQvzcA',1);
CREATE TABLE tables (
	id INTEGER NOT NULL, 
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
	hints BOOLEAN DEFAULT 1 NOT NULL, 
	rematch_of VARCHAR(16), 
	rematch VARCHAR(16), 
	created VARCHAR(32) NOT NULL, 
	updated VARCHAR(32) NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "tables" VALUES(1,'RDQRAW','dice','{}',1,'waiting',0,'Ktx6fd0I0mhkTN7QuPj0Tw',1,NULL,60.0,NULL,'normal',1,NULL,NULL,'2026-12-01T20:54:38+00:00','2026-12-01T20:54:38+00:00');
INSERT INTO "tables" VALUES(2,'HU6YVS','dice','{"dice": ["LL3456", "12LL56", "1234LL"], "end_score": 40, "starting_seat": 0}',20261201,'playing',12,'zBqdTuXIqVHU3ioF_gubgQ',0,NULL,600.0,NULL,'fast',0,NULL,NULL,'2026-12-01T20:54:39+00:00','2026-12-01T20:54:39+00:00');
CREATE INDEX ix_tables_status ON tables (status);
CREATE UNIQUE INDEX ix_tables_code ON tables (code);
CREATE INDEX ix_seats_table_id ON seats (table_id);
CREATE INDEX ix_retired_tokens_table_id ON retired_tokens (table_id);
CREATE INDEX ix_actions_table_id ON actions (table_id);
COMMIT;

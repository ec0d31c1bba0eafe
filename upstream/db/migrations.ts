/**
 * Versioned schema. Append a new entry for every change; never edit one that has shipped.
 * Money columns are INTEGER micro-USD, prices INTEGER scaled by the instrument's precision, lots INTEGER
 * thousandths. No REAL column holds money.
 */
export const MIGRATIONS: readonly string[] = [
  /* 1: catalogue, market, accounts, trading, ledger */ `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  CREATE TABLE area_codes (
    id INTEGER PRIMARY KEY, code TEXT NOT NULL, global_code TEXT NOT NULL, sort INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE TABLE categories (
    id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, always_open INTEGER NOT NULL DEFAULT 0, sort INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE instruments (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    show_code TEXT NOT NULL,
    category_id INTEGER NOT NULL REFERENCES categories(id),
    price_precision INTEGER NOT NULL CHECK (price_precision BETWEEN 0 AND 8),
    lot_step INTEGER NOT NULL CHECK (lot_step > 0),
    min_lots INTEGER NOT NULL CHECK (min_lots > 0),
    contract_size INTEGER NOT NULL CHECK (contract_size > 0),
    fee_rate INTEGER NOT NULL CHECK (fee_rate >= 0),
    margin_mode INTEGER NOT NULL,
    leverages TEXT NOT NULL,
    quote_currency TEXT NOT NULL,
    seed_price INTEGER NOT NULL CHECK (seed_price > 0),
    annual_volatility_ppm INTEGER NOT NULL,
    logo TEXT NOT NULL,
    sort INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE market_state (
    instrument_id INTEGER PRIMARY KEY REFERENCES instruments(id),
    price INTEGER NOT NULL,
    forced_status INTEGER CHECK (forced_status IN (0, 1)),
    day_start INTEGER NOT NULL,
    day_open INTEGER NOT NULL,
    day_high INTEGER NOT NULL,
    day_low INTEGER NOT NULL,
    day_volume INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE candles (
    instrument_id INTEGER NOT NULL REFERENCES instruments(id),
    period TEXT NOT NULL,
    time INTEGER NOT NULL,
    open INTEGER NOT NULL, high INTEGER NOT NULL, low INTEGER NOT NULL, close INTEGER NOT NULL,
    volume INTEGER NOT NULL,
    PRIMARY KEY (instrument_id, period, time)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    email TEXT COLLATE NOCASE UNIQUE,
    mobile TEXT,
    area_id INTEGER REFERENCES area_codes(id),
    password_hash TEXT,
    is_demo INTEGER NOT NULL DEFAULT 0 CHECK (is_demo IN (0, 1)),
    demo_id TEXT UNIQUE,
    invite_code TEXT NOT NULL UNIQUE,
    inviter_id INTEGER REFERENCES users(id),
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX users_mobile ON users(area_id, mobile) WHERE mobile IS NOT NULL;

  CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
  ) STRICT;
  CREATE INDEX tokens_user ON tokens(user_id);

  CREATE TABLE verification_codes (
    id INTEGER PRIMARY KEY,
    target TEXT NOT NULL,
    purpose INTEGER NOT NULL,
    code_hash TEXT NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT;
  CREATE INDEX verification_codes_target ON verification_codes(target, purpose, created_at);

  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE accounts (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    balance INTEGER NOT NULL CHECK (balance >= 0),
    lock_balance INTEGER NOT NULL CHECK (lock_balance >= 0)
  ) STRICT;

  CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    instrument_id INTEGER NOT NULL REFERENCES instruments(id),
    side INTEGER NOT NULL CHECK (side IN (1, 2)),
    lots INTEGER NOT NULL CHECK (lots > 0),
    entry_mode INTEGER NOT NULL CHECK (entry_mode IN (0, 1)),
    status INTEGER NOT NULL CHECK (status IN (0, 1, 2, 3, 4)),
    leverage INTEGER NOT NULL,
    origin_price INTEGER NOT NULL,
    target_price INTEGER,
    open_price INTEGER,
    close_price INTEGER,
    take_profit INTEGER,
    stop_loss INTEGER,
    margin INTEGER NOT NULL CHECK (margin >= 0),
    fee INTEGER NOT NULL CHECK (fee >= 0),
    profit INTEGER,
    close_reason INTEGER,
    idempotency_key TEXT,
    created_at INTEGER NOT NULL,
    opened_at INTEGER,
    completed_at INTEGER
  ) STRICT;
  CREATE INDEX orders_user_status ON orders(user_id, status, id);
  CREATE INDEX orders_open ON orders(status) WHERE status IN (0, 1);
  CREATE UNIQUE INDEX orders_idempotency ON orders(user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

  CREATE TABLE account_log (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    value INTEGER NOT NULL,
    type INTEGER NOT NULL,
    memo TEXT NOT NULL DEFAULT '',
    balance_after INTEGER NOT NULL,
    order_id INTEGER REFERENCES orders(id),
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX account_log_user ON account_log(user_id, id);
  CREATE TRIGGER account_log_no_update BEFORE UPDATE ON account_log
    BEGIN SELECT RAISE(ABORT, 'account_log is append-only'); END;
  CREATE TRIGGER account_log_no_delete BEFORE DELETE ON account_log
    BEGIN SELECT RAISE(ABORT, 'account_log is append-only'); END;
  `,
  /* 2: service providers shown by the product search (spec §2 "Product search") */ `
  CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    logo TEXT NOT NULL,
    url TEXT NOT NULL,
    subject TEXT NOT NULL,
    registered_address TEXT NOT NULL,
    location TEXT NOT NULL,
    email TEXT NOT NULL,
    sort INTEGER NOT NULL
  ) STRICT;
  `,
  /* 3: funds — uploads, deposit channels and deposits, withdrawal currencies, methods and withdrawals */ `
  CREATE TABLE uploads (
    name TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    bytes INTEGER NOT NULL CHECK (bytes > 0),
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX uploads_user ON uploads(user_id);

  CREATE TABLE deposit_channels (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('coin', 'wire')),
    currency_code TEXT NOT NULL,
    protocol_code TEXT,
    address TEXT,
    bank_name TEXT,
    bank_address TEXT,
    bank_swift TEXT,
    payee_name TEXT,
    payee_account TEXT,
    enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    sort INTEGER NOT NULL DEFAULT 0,
    CHECK (kind = 'wire' OR (protocol_code IS NOT NULL AND address IS NOT NULL)),
    CHECK (kind = 'coin' OR (bank_name IS NOT NULL AND payee_account IS NOT NULL))
  ) STRICT;

  CREATE TABLE deposits (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    channel_id INTEGER NOT NULL REFERENCES deposit_channels(id),
    type INTEGER NOT NULL CHECK (type IN (0, 1)),
    amount INTEGER NOT NULL CHECK (amount > 0),
    currency_code TEXT NOT NULL,
    protocol_code TEXT,
    address TEXT,
    proof TEXT NOT NULL REFERENCES uploads(name),
    status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
    remark TEXT NOT NULL DEFAULT '',
    idempotency_key TEXT,
    created_at INTEGER NOT NULL,
    reviewed_at INTEGER
  ) STRICT;
  CREATE INDEX deposits_user ON deposits(user_id, id);
  CREATE INDEX deposits_waiting ON deposits(status) WHERE status = 0;
  CREATE UNIQUE INDEX deposits_idempotency ON deposits(user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

  CREATE TABLE withdraw_currencies (
    id INTEGER PRIMARY KEY,
    type INTEGER NOT NULL CHECK (type IN (1, 2)),
    code TEXT NOT NULL,
    protocol TEXT NOT NULL,
    fee_type INTEGER NOT NULL CHECK (fee_type IN (1, 2)),
    -- fee_type 1: micro-USD per withdrawal; 2: percent × 1e6 of the amount.
    draw_rate INTEGER NOT NULL CHECK (draw_rate >= 0),
    usd_price INTEGER NOT NULL CHECK (usd_price > 0),
    min_amount INTEGER NOT NULL CHECK (min_amount > 0),
    max_amount INTEGER NOT NULL CHECK (max_amount >= min_amount),
    enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    sort INTEGER NOT NULL DEFAULT 0,
    UNIQUE (type, code, protocol)
  ) STRICT;

  CREATE TABLE withdraw_methods (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    type INTEGER NOT NULL CHECK (type IN (1, 2)),
    currency_id INTEGER NOT NULL REFERENCES withdraw_currencies(id),
    dc_address TEXT,
    bank_name TEXT,
    bank_address TEXT,
    bank_swift TEXT,
    payee_name TEXT,
    payee_account TEXT,
    branch_name TEXT,
    remark TEXT,
    created_at INTEGER NOT NULL,
    -- Deleted methods stay for the withdrawals that name them.
    deleted_at INTEGER,
    CHECK (type = 2 OR dc_address IS NOT NULL),
    CHECK (type = 1 OR (bank_name IS NOT NULL AND payee_account IS NOT NULL))
  ) STRICT;
  CREATE INDEX withdraw_methods_user ON withdraw_methods(user_id, type) WHERE deleted_at IS NULL;

  CREATE TABLE withdrawals (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    currency_id INTEGER NOT NULL REFERENCES withdraw_currencies(id),
    method_id INTEGER NOT NULL REFERENCES withdraw_methods(id),
    type INTEGER NOT NULL CHECK (type IN (1, 2)),
    amount INTEGER NOT NULL CHECK (amount > 0),
    fee INTEGER NOT NULL CHECK (fee >= 0 AND fee < amount),
    currency_code TEXT NOT NULL,
    protocol TEXT NOT NULL,
    -- The method as it was at the request.
    address TEXT,
    bank_name TEXT,
    payee_name TEXT,
    payee_account TEXT,
    memo TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
    remark TEXT NOT NULL DEFAULT '',
    idempotency_key TEXT,
    created_at INTEGER NOT NULL,
    reviewed_at INTEGER
  ) STRICT;
  CREATE INDEX withdrawals_user ON withdrawals(user_id, id);
  CREATE INDEX withdrawals_waiting ON withdrawals(status) WHERE status = 0;
  CREATE UNIQUE INDEX withdrawals_idempotency ON withdrawals(user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX orders_user_opened ON orders(user_id, opened_at);
  `,
  /* 4: identity checks, news in several languages, copy-trade leaders */ `
  CREATE TABLE identity_checks (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    name TEXT NOT NULL,
    card_id TEXT NOT NULL,
    front TEXT NOT NULL REFERENCES uploads(name),
    back TEXT NOT NULL REFERENCES uploads(name),
    -- 0 rejected (the form again, with the reason), 1 under review, 2 verified.
    status INTEGER NOT NULL CHECK (status IN (0, 1, 2)),
    reason TEXT NOT NULL DEFAULT '',
    submitted_at INTEGER NOT NULL,
    reviewed_at INTEGER
  ) STRICT;
  CREATE INDEX identity_checks_waiting ON identity_checks(status) WHERE status = 1;

  CREATE TABLE news (
    id INTEGER PRIMARY KEY,
    category_id INTEGER NOT NULL DEFAULT 1,
    logo TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    removed_at INTEGER
  ) STRICT;
  CREATE TABLE news_texts (
    news_id INTEGER NOT NULL REFERENCES news(id),
    lang TEXT NOT NULL,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    -- HTML as the editor wrote it; the web sanitises it before showing it.
    content TEXT NOT NULL,
    PRIMARY KEY (news_id, lang)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE leaders (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    code TEXT NOT NULL,
    multiple INTEGER NOT NULL,
    -- Percentages × 100 and micro-USD, so that no REAL column holds a figure.
    three_week_rate INTEGER NOT NULL,
    three_week_win INTEGER NOT NULL,
    three_week_profit INTEGER NOT NULL,
    total_rate INTEGER NOT NULL,
    total_trade_num INTEGER NOT NULL,
    followers INTEGER NOT NULL,
    sort INTEGER NOT NULL
  ) STRICT;
  `,
  /* 5: the price-deviation tolerance of market orders, per instrument (NULL: its category's default) */ `
  ALTER TABLE instruments ADD COLUMN max_deviation_bp INTEGER CHECK (max_deviation_bp IS NULL OR max_deviation_bp > 0);
  `,
  /* 6: partial close (a closed part is its own row pointing at its position) and close-all answers by key */ `
  ALTER TABLE orders ADD COLUMN parent_id INTEGER REFERENCES orders(id);
  CREATE TABLE close_all_answers (
    user_id INTEGER NOT NULL REFERENCES users(id),
    idempotency_key TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
  ) STRICT, WITHOUT ROWID;
  `,
  /* 7: trailing stops: the distance behind the price (scaled like prices) that the engine keeps stop_loss at */ `
  ALTER TABLE orders ADD COLUMN trail_distance INTEGER CHECK (trail_distance IS NULL OR trail_distance > 0);
  `,
  /* 8: Web Push subscriptions, a user's phones (issue 13, price alerts) */ `
  CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
  `,
  /* 9: price alerts (issue 13): a level per user and instrument, fired once by the engine (triggered_at) */ `
  CREATE TABLE price_alerts (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    instrument_id INTEGER NOT NULL REFERENCES instruments(id),
    -- 1: fires when the price rises to the level or above; 2: when it falls to it or below.
    direction INTEGER NOT NULL CHECK (direction IN (1, 2)),
    -- Scaled by the instrument's precision, like every price.
    price INTEGER NOT NULL CHECK (price > 0),
    note TEXT NOT NULL DEFAULT '',
    -- The language the trader asked in: the e-mail is written in it.
    lang TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    triggered_at INTEGER,
    triggered_price INTEGER,
    CHECK ((triggered_at IS NULL) = (triggered_price IS NULL))
  ) STRICT;
  CREATE INDEX price_alerts_user ON price_alerts(user_id, id);
  CREATE INDEX price_alerts_waiting ON price_alerts(instrument_id) WHERE triggered_at IS NULL;
  `,
  /* 10: account security (issue 38): the authenticator, recovery codes, half-done log-ins, step-up grants, signed-in
     devices (a token's public id, user agent, address), held withdrawal methods, the operator's factor removals */ `
  ALTER TABLE tokens ADD COLUMN session_id TEXT;
  ALTER TABLE tokens ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
  -- The address as the owner may see it (IPv4 /24, IPv6 /48): also what makes a device known.
  ALTER TABLE tokens ADD COLUMN address TEXT NOT NULL DEFAULT '';
  ALTER TABLE tokens ADD COLUMN last_seen_at INTEGER;
  UPDATE tokens SET session_id = lower(hex(randomblob(16))), last_seen_at = created_at;
  CREATE UNIQUE INDEX tokens_session ON tokens(session_id);
  CREATE INDEX tokens_user_device ON tokens(user_id, address, user_agent);

  -- The language the owner last signed in with: notices are written in it.
  ALTER TABLE users ADD COLUMN lang TEXT;
  ALTER TABLE users ADD COLUMN withdrawals_held_until INTEGER;

  CREATE TABLE user_factors (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    -- base32; NULL while the authenticator is off
    totp_secret TEXT,
    totp_on_at INTEGER,
    -- The last accepted time step: a code of this step or an earlier one is refused (no replay).
    totp_last_step INTEGER,
    pending_secret TEXT,
    pending_expires_at INTEGER
  ) STRICT;

  CREATE TABLE recovery_codes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    code_hash TEXT NOT NULL,
    used_at INTEGER
  ) STRICT;
  CREATE INDEX recovery_codes_user ON recovery_codes(user_id);

  CREATE TABLE login_tickets (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    expires_at INTEGER NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    used_at INTEGER
  ) STRICT;

  CREATE TABLE step_up_grants (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL,
    action TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT;

  ALTER TABLE withdraw_methods ADD COLUMN usable_at INTEGER;

  CREATE TABLE admin_actions (
    id INTEGER PRIMARY KEY,
    verb TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  `,
  /* 11: passkeys (issue 38): each credential's public key and signature counter, and each ceremony's challenge */ `
  CREATE TABLE passkeys (
    -- The credential id, base64url, as the browser names it.
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    public_key BLOB NOT NULL,
    counter INTEGER NOT NULL,
    -- JSON array of the authenticator's transports (hints for the browser)
    transports TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
  ) STRICT;
  CREATE INDEX passkeys_user ON passkeys(user_id);

  CREATE TABLE passkey_challenges (
    challenge TEXT PRIMARY KEY,
    -- register, login, step_up
    purpose TEXT NOT NULL,
    -- NULL for a password-less log-in (any passkey of this site may answer)
    user_id INTEGER REFERENCES users(id),
    -- step_up: the action its grant is for; login: the half-done log-in's ticket hash, if any
    detail TEXT,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT;
  `,
  // A position's closed parts, read when an order's key is sent again (its lots as placed).
  `CREATE INDEX orders_parent ON orders(parent_id) WHERE parent_id IS NOT NULL;`,
];

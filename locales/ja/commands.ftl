# commands
# Discord に登録するスラッシュコマンドの日本語名と説明。名前は Discord の規則どおり 1〜32 文字の
# 文字・数字・`-`・`_`・`'` だけ（空白、「」、・は使えない）。説明は 1〜100 文字。

cmd-challenge = 挑戦
    .description = 相手に対局を申し込みます。
cmd-challenge-opponent = 相手
    .description = 対局する相手
cmd-challenge-game = 種類
    .description = ゲームの種類（既定は将棋）
cmd-challenge-color = 手番
    .description = あなたの手番: 先手、後手、ランダム（上海宮殿チェスは紅か藍）
cmd-challenge-days = 日数
    .description = 一手の持ち日数（1、2、3、5、7、10、14）、ほかの方式では初めの持ち時間
cmd-challenge-rated = レーティング
    .description = レーティング対局（Glicko-2）にするか
cmd-challenge-handicap = 駒落ち
    .description = 駒落ち: lance（香落ち）、bishop（角落ち）、rook（飛車落ち）、rook-lance（飛香落ち）、two、four、six
cmd-challenge-setup = 初期配置
    .description = 名前のある初期配置（上海宮殿チェス: original か smith）
cmd-challenge-level = 強さ
    .description = Tegami 自身に挑戦するときの強さ: 1（初心者）〜5
cmd-challenge-clock = 持ち時間方式
    .description = 持ち時間の方式: per-move（一手ごと、既定）、increment（加算）、byoyomi（秒読み）
cmd-challenge-increment = 加算日数
    .description = 加算方式: 一手指すごとに持ち時間に加える日数（既定は1）
cmd-challenge-cap = 上限日数
    .description = 加算方式: 持ち時間の上限日数（既定は7か初めの持ち時間）
cmd-challenge-period = 秒読み日数
    .description = 秒読み方式: 持ち時間を使い切った後の一手の日数（既定は1）

cmd-accept = 受諾
    .description = 挑戦を受けます。
cmd-accept-challenge = 挑戦番号
    .description = 挑戦の番号（複数あるときだけ必要）

cmd-decline = 拒否
    .description = 挑戦を断ります。
cmd-decline-challenge = 挑戦番号
    .description = 挑戦の番号（複数あるときだけ必要）

cmd-cancel = 取り下げ
    .description = 自分の挑戦を取り下げます。
cmd-cancel-challenge = 挑戦番号
    .description = 挑戦の番号（複数あるときだけ必要）

cmd-move = 指す
    .description = 一手指します（７六歩、P-7f、7g7f など）。
cmd-move-move = 指し手
    .description = あなたの指し手（例: ７六歩、P-7f、7g7f。上海宮殿チェス: e4、Nf3）
cmd-move-game = 対局
    .description = 対局の番号（複数の対局中のときだけ必要）

cmd-moves = 合法手
    .description = 対局の合法手（マスを指定するとその駒の手だけ）。
cmd-moves-square = マス
    .description = このマスの駒の手だけ（例: 7g）
cmd-moves-game = 対局
    .description = 対局の番号

cmd-board = 盤面
    .description = 対局の盤面（現在、または指定した手数の後）。
cmd-board-game = 対局
    .description = 対局の番号
cmd-board-ply = 手数
    .description = この手数の後の局面を表示
cmd-board-style = 駒の表記
    .description = 駒を漢字で表示するか、国際式の記号で表示するか

cmd-resign = 投了
    .description = 投了します（確認があります）。
cmd-resign-game = 対局
    .description = 対局の番号

cmd-declare = 入玉宣言
    .description = 将棋: 自分の手番で入玉宣言をします（27点法）
cmd-declare-game = 対局
    .description = 対局の番号

cmd-moretime = 時間追加
    .description = 相手の持ち時間を1日延ばします。
cmd-moretime-game = 対局
    .description = 対局の番号

cmd-draw = 引き分け
    .description = 引き分けを提案、受諾、または拒否します。
cmd-draw-action = 操作
    .description = 提案、受諾、拒否
cmd-draw-game = 対局
    .description = 対局の番号

cmd-takeback = 待った
    .description = 待ったを求めます。または待ったに答えます。
cmd-takeback-action = 操作
    .description = 提案、受諾、拒否
cmd-takeback-game = 対局
    .description = 対局の番号

cmd-impasse = 持将棋
    .description = 点数による持将棋を提案します。または提案に答えます。
cmd-impasse-action = 操作
    .description = 提案、受諾、拒否
cmd-impasse-game = 対局
    .description = 対局の番号

cmd-games = 対局一覧
    .description = 進行中の対局と受付中の挑戦。
cmd-games-user = ユーザー
    .description = 他の人の対局

cmd-history = 履歴
    .description = 終局した対局。
cmd-history-user = ユーザー
    .description = 他の人の履歴

cmd-stats = 成績
    .description = レーティングと成績。
cmd-stats-user = ユーザー
    .description = 他の人の成績

cmd-record = 棋譜
    .description = 対局の棋譜（一手ずつ）。
cmd-record-game = 対局
    .description = 対局の番号

cmd-analysis = 解析
    .description = 終局した対局の評価値グラフと形勢が大きく動いた手。
cmd-analysis-game = 対局
    .description = 終局した対局の番号

cmd-replay = 再生
    .description = 対局をアニメーション画像で再生します。
cmd-replay-game = 対局
    .description = 対局の番号

cmd-export = 書き出し
    .description = 他のソフト用に対局を書き出します: SFEN、KIF、CSA、Fairy-Stockfish FEN。
cmd-export-game = 対局
    .description = 対局の番号
cmd-export-format = 形式
    .description = SFEN（既定）、KIF、CSA、FEN

cmd-rules = ルール
    .description = ゲームの遊び方（勝ち負け、盤、駒、取った駒、特別な手）、または一つの駒の動き。
cmd-rules-game = 種類
    .description = ゲームの種類
cmd-rules-piece = 駒
    .description = 駒の記号か名前（S、+R、Ln、lion）

cmd-leaderboard = ランキング
    .description = このサーバーでのゲームごとのレーティング上位。
cmd-leaderboard-game = 種類
    .description = ゲームの種類

cmd-settings = 設定
    .description = あなたの設定: 駒の表記、手番の知らせ方、リマインド、言語、棋譜表記、盤の向き。
cmd-settings-style = 駒の表記
    .description = 駒を漢字で表示するか、国際式の記号で表示するか
cmd-settings-notify = 通知
    .description = 手番の知らせ方: メンション、DM、まとめ
cmd-settings-remind = リマインド
    .description = 期限の何時間前に知らせるか（0: 知らせない）
cmd-settings-language = 言語
    .description = あなたへの言語: 英語か日本語
cmd-settings-notation = 棋譜表記
    .description = 指し手の表記: 西洋式、日本式、USI
cmd-settings-digest_hour = まとめの時刻
    .description = 毎日のまとめを送る時刻（0〜23、あなたのタイムゾーンで）
cmd-settings-timezone = タイムゾーン
    .description = あなたのタイムゾーン（例: Asia/Tokyo。既定は UTC）

cmd-vacation = 休暇
    .description = 期限を何日か止めます（月14日まで）。休暇の終了と確認も。
cmd-vacation-days = 日数
    .description = 休む日数
cmd-vacation-end = 終了
    .description = 休暇を今すぐ終える

cmd-server = サーバー
    .description = このサーバーの設定（変更はサーバー管理者のみ）。
cmd-server-days = 日数
    .description = 一手の既定の持ち日数
cmd-server-rated = レーティング
    .description = 既定でレーティング対局にするか
cmd-server-channel = チャンネル
    .description = 挑戦からの対局を行うチャンネル
cmd-server-language = 言語
    .description = サーバーの公開投稿の言語: 英語か日本語
cmd-server-leagues = リーグ
    .description = メンバーがリーグを作成できるか（オフなら管理者のみ）
cmd-server-feature = 注目局
    .description = このサーバーの /games で最初に表示する対局（0: なし）

cmd-help = ヘルプ
    .description = コマンドの一覧、または一つのコマンドのヘルプ。
cmd-help-topic = 項目
    .description = コマンドか項目

choice-game-shogi = 将棋
choice-game-judkins = ジャドキンス将棋
choice-game-cannon = 大砲将棋
choice-game-palace = 宮殿将棋
choice-game-shanghai = 上海宮殿チェス
choice-color-black = 先手
choice-color-white = 後手
choice-color-random = ランダム
choice-color-red = 紅（上海宮殿チェス）
choice-color-blue = 藍（上海宮殿チェス）
choice-style-kanji = 漢字
choice-style-international = 国際式
choice-action-offer = 提案
choice-action-accept = 受諾
choice-action-decline = 拒否
choice-format-sfen = SFEN
choice-format-kif = KIF
choice-format-csa = CSA
choice-format-fen = FEN（Fairy-Stockfish）
choice-notify-mention = メンション
choice-notify-dm = DM（ダイレクトメッセージ）
choice-notify-digest = まとめ
choice-notify-thread = スレッド
choice-notify-ping = 毎手メンション
choice-language-en = 英語
choice-language-ja = 日本語
choice-notation-western = 西洋式
choice-notation-japanese = 日本式
choice-notation-usi = USI（符号）
choice-board-turn = 手番の側
choice-board-black = 先手（紅）
choice-board-white = 後手（藍）

cmd-league = リーグ
    .description = サーバーのリーグ戦: 総当たり戦とスイス式トーナメント。
cmd-league-create = 作成
    .description = リーグを作成する（運営はあなたとサーバー管理者）。
cmd-league-create-name = 名前
    .description = リーグの名前
cmd-league-create-game = ゲーム
    .description = どのゲームか
cmd-league-create-format = 方式
    .description = 総当たり、二回総当たり、スイス式
cmd-league-create-days = 日数
    .description = 一手の持ち日数（1、2、3、5、7、10、14）、ほかの方式では初めの持ち時間
cmd-league-create-rounds = 回戦数
    .description = スイス式: 何回戦か
cmd-league-create-rated = レーティング
    .description = レーティング対局（Glicko-2）か非レーティング対局か
cmd-league-create-start = 開始
    .description = 総当たり戦: 全対局を一度に（all）か一回戦ずつ（rounds）か
cmd-league-create-round_days = 回戦の日数
    .description = 一回戦の期限の日数。過ぎると未終局の対局は裁定で引き分け
cmd-league-create-max_players = 最大人数
    .description = 参加できる最大の人数
cmd-league-create-rating_min = 最低レーティング
    .description = このレーティング以上の人だけ
cmd-league-create-rating_max = 最高レーティング
    .description = このレーティング以下の人だけ
cmd-league-create-clock = 持ち時間方式
    .description = 持ち時間の方式: per-move（一手ごと、既定）、increment（加算）、byoyomi（秒読み）
cmd-league-create-increment = 加算日数
    .description = 加算方式: 一手指すごとに持ち時間に加える日数（既定は1）
cmd-league-create-cap = 上限日数
    .description = 加算方式: 持ち時間の上限日数（既定は7か初めの持ち時間）
cmd-league-create-period = 秒読み日数
    .description = 秒読み方式: 持ち時間を使い切った後の一手の日数（既定は1）
cmd-league-join = 参加
    .description = 開始前のリーグに参加する。
cmd-league-join-league = リーグ
    .description = リーグの番号
cmd-league-leave = 退出
    .description = リーグを抜ける（開始後は棄権となり、未対局は不戦敗）。
cmd-league-leave-league = リーグ
    .description = リーグの番号
cmd-league-start = 開始
    .description = リーグを開始し、第1回戦の対局を作る（運営者）。
cmd-league-start-league = リーグ
    .description = リーグの番号
cmd-league-cancel = 中止
    .description = リーグを中止する。進行中の対局はそのまま続く（運営者）。
cmd-league-cancel-league = リーグ
    .description = リーグの番号
cmd-league-list = 一覧
    .description = このサーバーのリーグの一覧。
cmd-league-show = 表示
    .description = リーグの参加者、回戦、対局、順位表。
cmd-league-show-league = リーグ
    .description = リーグの番号
cmd-league-pairings = 組み合わせ
    .description = ある回戦の組み合わせと結果。
cmd-league-pairings-league = リーグ
    .description = リーグの番号
cmd-league-pairings-round = 回戦
    .description = 回戦（省略時は現在の回戦）
cmd-league-kick = 除名
    .description = 参加者をリーグから外す（運営者）。
cmd-league-kick-league = リーグ
    .description = リーグの番号
cmd-league-kick-user = ユーザー
    .description = 外す人

choice-format-round-robin = 総当たり
choice-format-double-round-robin = 二回総当たり
choice-format-swiss = スイス式
choice-start-rounds = 一回戦ずつ
choice-start-all = 全対局を一度に
choice-clock-per-move = 一手ごと
choice-clock-increment = 加算（フィッシャー）
choice-clock-byoyomi = 秒読み

cmd-conditional = 予約手
    .description = 予約手:「相手がXなら自分はY」。あなたにだけ表示されます。
cmd-conditional-add = 追加
    .description = 予約を追加する: 相手の予想手、自分の応手、…の順に。
cmd-conditional-add-line = 手順
    .description = 指し手。例: 3c3d 2g2f 8c8d 2f2e（どの表記でも可）
cmd-conditional-add-game = 対局
    .description = 対局の番号（複数の対局中のときだけ必要）
cmd-conditional-list = 一覧
    .description = ある対局のあなたの予約。
cmd-conditional-list-game = 対局
    .description = 対局の番号
cmd-conditional-clear = 消去
    .description = ある対局のあなたの予約を消す。
cmd-conditional-clear-game = 対局
    .description = 対局の番号

cmd-follow = フォロー
    .description = このサーバーの対局をフォローします（対局を指定しなければフォロー中の一覧）。
cmd-follow-game = 対局
    .description = 対局の番号
cmd-follow-notify = 知らせ方
    .description = 知らせ方: スレッド（既定）、まとめ、毎手メンション
cmd-unfollow = フォロー解除
    .description = 対局のフォローをやめます。
cmd-unfollow-game = 対局
    .description = 対局の番号
cmd-settings-board = 盤の向き
    .description = 画像の下側: black（先手）、white（後手）、turn（手番の側）

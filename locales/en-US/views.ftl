# Views: boards, lists, records, settings (src/service/views.rs).

## Settings

settings-show = Your settings: style={ $style } (kanji or international), notify={ $notify } (mention, dm or digest), remind={ $remind }, language={ $language }, notation={ $notation }. Change with `settings style=international notify=dm remind=12 language=ja notation=japanese`.
settings-saved = Saved: style={ $style }, notify={ $notify }, remind={ $remind }, language={ $language }, notation={ $notation }.
settings-remind-off = 0 (no reminders)
settings-remind-hours = { $hours } (reminded { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    } before a deadline, at the earliest halfway through the time per move)
settings-language-chosen = { $lang }
settings-language-client = { $lang } (your Discord language)
settings-notation-chosen = { $notation }
settings-notation-default = { $notation } (your language's)
settings-bad-style = style '{ $value }' is not kanji or international
settings-bad-notify = notify '{ $value }' is not mention, dm or digest
settings-bad-remind = remind={ $value }: a reminder comes 0 to { $max } hours (two weeks) before a deadline (0: never)
settings-bad-language = language '{ $value }' is not en or ja (or default)
settings-bad-notation = notation '{ $value }' is not western, japanese or usi (or default)

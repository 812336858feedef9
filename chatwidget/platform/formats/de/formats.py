"""German date formats: the English ones' shape (chatwidget/formats/en), German month names."""

DATE_FORMAT = "j. M Y"  # 1. Dez 2026
SHORT_DATE_FORMAT = DATE_FORMAT
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j. M Y, H:i T"  # 1. Dez 2026, 06:44 CET
SHORT_DATETIME_FORMAT = DATETIME_FORMAT

"""English date formats: one for every date and one for every time, the zone always named.

Django's own English formats mix "Dec. 1, 2026" (DATE_FORMAT) with "12/01/2026 5:44 a.m."
(SHORT_DATETIME_FORMAT); admin then shows both on one page. `T` names the zone ("CET").
"""

DATE_FORMAT = "j M Y"  # 1 Dec 2026
SHORT_DATE_FORMAT = DATE_FORMAT
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i T"  # 1 Dec 2026, 06:44 CET
SHORT_DATETIME_FORMAT = DATETIME_FORMAT

app_name = "handover"
urlpatterns: list = []

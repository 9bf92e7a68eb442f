"""GET/PUT /api/account: the profile, preferences and live usage."""
import pytest

from app.events.models import Event
from app.users.models import User

ACCOUNT_FIELDS = ["id", "email", "name", "avatar", "emailVerified", "emailVerifiedAt", "subscriptionType",
                  "subscriptionStatus", "subscriptionExpiresAt", "resumesCreated", "resumesLimit", "apiRequestsUsed",
                  "apiRequestsLimit", "storageUsed", "storageLimit", "preferences", "createdAt", "updatedAt",
                  "lastLoginAt"]


def test_the_account_has_exactly_the_contracts_fields_and_the_free_plans_limits(client, owner):
    response = client.get("/api/account")
    assert response.status_code == 200
    account = response.get_json()["data"]
    assert list(account) == ACCOUNT_FIELDS
    assert account["email"] == owner["email"] and account["name"] == "Ada Lovelace" and account["avatar"] is None
    assert account["emailVerified"] is True and account["emailVerifiedAt"].endswith("Z")
    assert (account["subscriptionType"], account["subscriptionStatus"]) == ("FREE", "ACTIVE")
    assert (account["resumesLimit"], account["apiRequestsLimit"], account["storageLimit"]) == (5, 100, 10485760)
    assert (account["resumesCreated"], account["apiRequestsUsed"], account["storageUsed"]) == (0, 0, 0)
    assert account["preferences"] == {"language": "en", "timezone": "UTC", "theme": "auto",
                                      "emailNotifications": True, "marketingEmails": False}
    assert account["lastLoginAt"].endswith("Z")


def test_counts_are_live(client, owner):
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    ids = [client.post("/api/resumes", json={"title": f"R{i}", "templateId": template}).get_json()["data"]["id"]
           for i in range(3)]
    client.delete(f"/api/resumes/{ids[0]}")
    size = client.post(f"/api/resumes/{ids[1]}/export", json={"format": "txt"}).get_json()["data"]["fileSize"]
    account = client.get("/api/account").get_json()["data"]
    assert account["resumesCreated"] == 2 and account["storageUsed"] == size


def test_the_account_needs_a_session(app):
    assert app.test_client().get("/api/account").status_code == 401
    assert app.test_client().put("/api/account", json={"name": "X"}).status_code == 401


def test_name_avatar_and_preferences_are_updated(client, owner):
    response = client.put("/api/account", json={"name": "Ada King", "avatar": "https://example.com/ada.png",
                                                "preferences": {"theme": "dark", "timezone": "Asia/Shanghai"}})
    assert response.status_code == 200
    account = response.get_json()["data"]
    assert (account["name"], account["avatar"]) == ("Ada King", "https://example.com/ada.png")
    assert account["preferences"]["theme"] == "dark" and account["preferences"]["timezone"] == "Asia/Shanghai"
    assert client.get("/api/account").get_json()["data"] == account


def test_preferences_are_merged_key_by_key(client, owner):
    client.put("/api/account", json={"preferences": {"language": "zh-cn", "marketingEmails": True}})
    client.put("/api/account", json={"preferences": {"theme": "light"}})
    preferences = client.get("/api/account").get_json()["data"]["preferences"]
    assert preferences == {"language": "zh-cn", "timezone": "UTC", "theme": "light", "emailNotifications": True,
                           "marketingEmails": True}


def test_the_avatar_can_be_removed(client, owner):
    client.put("/api/account", json={"avatar": "http://example.com/a.png"})
    assert client.put("/api/account", json={"avatar": None}).get_json()["data"]["avatar"] is None


def test_fields_left_out_stay_as_they_are(client, owner):
    client.put("/api/account", json={"name": "Ada King"})
    assert client.put("/api/account", json={}).get_json()["data"]["name"] == "Ada King"


@pytest.mark.parametrize("body,field", [
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"name": None}, "name"),
    ({"avatar": "javascript:alert(1)"}, "avatar"),
    ({"avatar": "ftp://example.com/a.png"}, "avatar"),
    ({"avatar": 5}, "avatar"),
    ({"preferences": {"language": "tlh"}}, "preferences.language"),
    ({"preferences": {"timezone": "Mars/Olympus"}}, "preferences.timezone"),
    ({"preferences": {"timezone": "utc+8"}}, "preferences.timezone"),
    ({"preferences": {"theme": "neon"}}, "preferences.theme"),
    ({"preferences": {"emailNotifications": "yes"}}, "preferences.emailNotifications"),
    ({"preferences": {"fontSize": 12}}, "preferences.fontSize"),
    ({"preferences": "dark"}, "preferences"),
    ({"email": "new@example.com"}, "email"),
    ({"subscriptionType": "ENTERPRISE"}, "subscriptionType"),
])
def test_invalid_updates_name_the_field_and_change_nothing(client, owner, body, field):
    before = client.get("/api/account").get_json()["data"]
    response = client.put("/api/account", json=body)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR" and response.get_json()["details"]["field"] == field
    assert client.get("/api/account").get_json()["data"] == before


def test_a_profile_change_records_the_user_profile_updated_event(client, owner, query):
    client.put("/api/account", json={"name": "Ada King", "preferences": {"theme": "dark", "language": "en"}})
    client.put("/api/account", json={"name": "Ada King"})  # nothing changes: no event
    events = query(lambda s: [(e.type, e.user_id, e.data)
                              for e in s.query(Event).filter_by(type="user.profile_updated")])
    assert events == [("user.profile_updated", owner["id"], {"user": {
        "id": owner["id"], "email": owner["email"], "name": "Ada King",
        "changed_fields": ["name", "preferences.theme"]}})]


def test_the_session_shows_the_avatar_as_its_image(client, owner):
    client.put("/api/account", json={"avatar": "https://example.com/ada.png"})
    assert client.get("/api/auth/session").get_json()["user"]["image"] == "https://example.com/ada.png"


def test_usage_limits_follow_the_plan(client, owner, query):
    def premium(session):
        session.query(User).filter_by(id=owner["id"]).one().subscription.type = "PREMIUM"
        session.commit()

    query(premium)
    account = client.get("/api/account").get_json()["data"]
    assert (account["resumesLimit"], account["apiRequestsLimit"], account["storageLimit"]) == (-1, 1000, 104857600)

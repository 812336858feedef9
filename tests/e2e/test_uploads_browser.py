"""Photos from the visitor in real Chromium (issue 33): a photo with EXIF GPS is attached by
keyboard from the composer, on desktop and at 390 px, shows in the transcript, is answered,
and reaches staff on the case page in admin with its EXIF gone (the bytes read with Pillow);
an image of a test card number, rendered here, is refused with the card notice and stored
nowhere (no file, no row, no turn, no log line); axe finds no violations."""

import io
import json

import pytest
from PIL import Image

from tests.e2e import widget_pages
from tests.e2e.conftest import artifact, shadow
from tests.e2e.widget_pages import (
    assert_no_violations,
    case_page_open,
    create_site,
    open_panel,
    send,
    session_cookies,
    shop_page,
    staff_user,
)
from tests.fakellm import JsonReply, Reply
from tests.memory.upload_images import card_image, photo_with_gps

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixtures

CORE = {
    "request": "a parcel that arrived damaged",
    "objects": [],
    "constraints": [],
    "open_points": ["what the damage looks like"],
    "promises": [],
    "corrections": [],
    "settled": [],
}
STORED = """
import json, os
from django.core.files.storage import storages
from memory.models import Attachment, Turn
root = storages['visitor_uploads'].location
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs) if os.path.isdir(root) else []
print(json.dumps({"files": files, "rows": Attachment.objects.count(),
  "card_turns": Turn.objects.filter(text__contains='4111 1111').count()}))
"""


@pytest.fixture(scope="module")
def upload_site(live_stack, page_server):
    return create_site(live_stack, "Photo shop", page_server.origin, staff_hours="")


def stored(stack) -> dict:
    return json.loads(stack.shell(STORED).strip().splitlines()[-1])


def attach_by_keyboard(page, choosers: list, path) -> None:
    """Focus the attach button, Enter opens the file chooser. `choosers` is filled by a
    `filechooser` listener the test set up when the page opened: playwright turns the
    interception on without waiting for it, so a chooser expected only just before the
    key press may open natively and never be seen."""
    button = shadow(page, ".attach-button")
    assert button.get_attribute("aria-label") == "Attach a photo or file"
    seen = len(choosers)
    button.focus()
    page.keyboard.press("Enter")
    for _ in range(100):
        if len(choosers) > seen:
            break
        page.wait_for_timeout(100)
    assert len(choosers) > seen, "Enter on the attach button opens the file chooser"
    choosers[-1].set_files(str(path))


def case_image_bytes(stack, browser, token: str) -> bytes:
    """Staff log in, open the conversation's case and read the photo shown in its transcript."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        admin = case_page_open(stack, ctx, token, *staff_user(stack, "pia"))
        image = admin.locator("#live-turns li.visitor .attachment img").first
        image.wait_for()
        assert "Photo from the visitor: damage.jpg" == image.get_attribute("alt")
        assert admin.evaluate("(img) => img.complete && img.naturalWidth", image.element_handle())
        admin.screenshot(path=str(artifact("uploads-case-page.png")), full_page=True)
        response = admin.request.get(stack.widget_url + image.get_attribute("src"))
        assert response.status == 200 and response.headers["content-type"] == "image/jpeg"
        return response.body()
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_photo_reaches_staff_without_its_exif_and_a_card_image_is_refused(
    live_stack, fake, page_server, upload_site, page, browser, tmp_path, width
):
    page.set_viewport_size({"width": width, "height": 844})
    choosers: list = []
    page.on("filechooser", lambda chooser: choosers.append(chooser))
    url = page_server.add(f"/photos-{width}/", shop_page(live_stack, upload_site))
    page.goto(url)
    open_panel(page)
    fake.script.append(Reply("I am sorry to hear that. Can you show me?"))
    send(page, "My parcel arrived damaged")
    shadow(page, ".message.assistant .bubble").filter(has_text="show me").wait_for()
    box = shadow(page, ".attach-button").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, "the button fits the screen"

    photo = tmp_path / "damage.jpg"
    photo.write_bytes(photo_with_gps())
    assert Image.open(photo).getexif().get_ifd(0x8825), "the test photo has GPS"
    fake.script.append(Reply("Thank you, I can see the dent."))
    attach_by_keyboard(page, choosers, photo)
    shadow(page, ".message.visitor .attachment-image").wait_for()
    shadow(page, ".message.assistant .bubble").filter(has_text="see the dent").wait_for()
    assert shadow(page, ".message.visitor .bubble").last.inner_text() == "[photo: damage.jpg]"
    assert_no_violations(page, f"a photo in the transcript ({width} px)")
    page.screenshot(path=str(artifact(f"uploads-widget-{width}.png")))
    asked = [r for r in fake.requests if r.get("stream")][-1]["messages"][-1]
    assert asked["content"] == "[photo: damage.jpg]", "the site's model takes no images"

    # a photo of a card: the same notice as a typed card number, and nothing kept
    before = stored(live_stack)
    card = tmp_path / "card.png"
    card.write_bytes(card_image())
    attach_by_keyboard(page, choosers, card)
    note = shadow(page, ".message.visitor.failed .note.error")
    note.wait_for()
    assert "card number" in note.inner_text()
    assert shadow(page, ".message.visitor.failed .attachment-image").count() == 0
    assert stored(live_stack) == before and before["card_turns"] == 0
    # the number's groups, not "4111" alone: a random port (41110) may be in the log
    log_text = live_stack.log_path.read_text()
    assert "4111 1111" not in log_text and "41111111" not in log_text
    sent = json.dumps(fake.requests)
    assert "4111 1111" not in sent and "41111111" not in sent

    # staff see the photo on the case page, its EXIF and GPS gone
    fake.script.append(JsonReply(CORE))
    shadow(page, ".handover-bar button").click()
    shadow(page, ".message.system").filter(has_text="A member of the team").wait_for()
    [token] = session_cookies(page.context, url).values()
    data = case_image_bytes(live_stack, browser, token)
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG" and image.size == (320, 240)
    assert not image.getexif() and not image.getexif().get_ifd(0x8825)
    assert b"TestCam" not in data


def test_a_photo_before_any_message_starts_the_conversation_and_staff_see_photos_live(
    live_stack, fake, page_server, upload_site, page, browser, tmp_path
):
    """No message yet, so no session: the upload starts the conversation, the widget keeps
    its token (the cookie) and its socket joins it to stream the answer; after a reload the
    conversation, photo turn included, is still there. Handed over, a photo the visitor
    sends while staff have the case page open appears there at once."""
    choosers: list = []
    page.on("filechooser", lambda chooser: choosers.append(chooser))
    url = page_server.add("/photo-first/", shop_page(live_stack, upload_site))
    page.goto(url)
    open_panel(page)
    photo = tmp_path / "damage.jpg"
    photo.write_bytes(photo_with_gps())
    fake.script.append(Reply("Thank you, I can see the dent first thing."))
    attach_by_keyboard(page, choosers, photo)
    shadow(page, ".message.assistant .bubble").filter(has_text="first thing").wait_for()
    assert shadow(page, ".message.visitor .note.error").count() == 0
    [token] = session_cookies(page.context, url).values()  # the upload's token is kept
    page.reload()
    shadow(page, ".panel").wait_for(state="attached")  # an existing conversation: at once
    if shadow(page, ".panel").is_hidden():  # the panel may be restored open
        open_panel(page)
    shadow(page, ".message.assistant .bubble").filter(has_text="first thing").wait_for()
    assert shadow(page, ".message.visitor .bubble").first.inner_text() == "[photo: damage.jpg]"

    fake.script.append(JsonReply(CORE))
    shadow(page, ".handover-bar button").click()
    shadow(page, ".message.system").filter(has_text="A member of the team").wait_for()
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        admin = case_page_open(live_stack, ctx, token, *staff_user(live_stack, "pia"))
        live = admin.locator("#live-turns li.visitor .attachment img")
        before = live.count()
        second = tmp_path / "label.jpg"
        second.write_bytes(photo_with_gps(size=(64, 48)))
        attach_by_keyboard(page, choosers, second)
        arrived = live.nth(before)
        arrived.wait_for()
        assert arrived.get_attribute("alt") == "Photo from the visitor: label.jpg"
        admin.wait_for_function(
            "(img) => img.complete && img.naturalWidth === 64", arg=arrived.element_handle()
        )
    finally:
        ctx.close()

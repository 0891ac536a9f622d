"""A product's pictures (issue 10, defect 9; issue 14, item 5): a manager adds several on the product form, makes one the
main picture, removes one; the main picture is the one the list, the form and the detail screen show; a picture that
fails to load gives way to the product's icon."""
import tempfile
import urllib.parse

from selenium.webdriver.common.by import By

from conftest import screenshot, unique, wait, wait_for, wait_idle


def png(colour, size=(160, 160)):
    from PIL import Image

    path = tempfile.NamedTemporaryFile(suffix=".png", delete=False).name
    Image.new("RGB", size, colour).save(path)
    return path


def form_pictures(driver):
    """The form's picture list: [(name or 'new', is main)], in order."""
    return [tuple(item) for item in driver.execute_script("""
        return [...document.querySelectorAll('#pf-pictures .picture-item')]
          .map((li) => [li.dataset.name ?? 'new', li.classList.contains('is-main')]);""")]


def list_thumb(driver, product_id):
    return driver.execute_script(
        "const row = document.querySelector(`#product-list .product-row[data-id='${arguments[0]}'] .thumb`);"
        "return row ? [row.tagName, row.getAttribute('src') || '', row.dataset.brokenPicture || ''] : null;", product_id)


def save_and_wait(driver, product_id):
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: urllib.parse.urlsplit(d.current_url).path == f"/app/products/{product_id}")
    return wait_for(driver, "#pd-flash").text


def test_several_pictures_one_main_and_remove(shop, signed_in):
    name = unique("Pictures")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "3.00", "iconEmoji": "🫖"})
    shop.ensure_user("manager")
    driver = signed_in(shop, "manager", width=1280, height=900)
    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    wait_for(driver, "#pf-name")
    assert not driver.find_elements(By.CSS_SELECTOR, "#pf-pictures .picture-item")

    # Two pictures at once (a multiple file input); the first chosen is the main one.
    first, second = png((200, 40, 40)), png((40, 40, 200), size=(200, 120))
    driver.find_element(By.ID, "pf-picture").send_keys(first + "\n" + second)
    wait(driver, lambda d: form_pictures(d) == [("new", True), ("new", False)])
    assert wait_for(driver, "#pf-preview-image").get_attribute("src").startswith("blob:")
    wait(driver, lambda d: "centre-cropped" in d.find_element(By.ID, "pf-pictures").text)  # the second is not square
    driver.execute_script("document.getElementById('pf-pictures').scrollIntoView({block: 'center'})")
    screenshot(driver, "pictures-form-two-new-1280")
    flash = save_and_wait(driver, product["id"])
    assert "2 pictures uploaded (1 shown centre-cropped" in flash, flash
    stored = shop.api("GET", f"/api/v1/products/{product['id']}")
    names = [p["imageRef"] for p in stored["pictures"]]
    assert len(names) == 2 and stored["imageRef"] == names[0]
    first_name, second_name = names
    # The detail screen: the main picture large, the other below it.
    wait(driver, lambda d: first_name in (d.find_element(By.CSS_SELECTOR, "#pd-picture img").get_attribute("src") or ""))
    assert second_name in wait_for(driver, "#pd-gallery img").get_attribute("src")

    # The second becomes the main one.
    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    wait(driver, lambda d: form_pictures(d) == [(first_name, True), (second_name, False)])
    driver.find_element(By.CSS_SELECTOR, f"#pf-pictures .picture-item[data-name='{second_name}'] .picture-make-main").click()
    wait(driver, lambda d: form_pictures(d) == [(second_name, True), (first_name, False)])
    flash = save_and_wait(driver, product["id"])
    assert "Main picture changed" in flash, flash
    main, other = second_name, first_name
    assert shop.api("GET", f"/api/v1/products/{product['id']}")["imageRef"] == main
    wait(driver, lambda d: d.execute_script("return document.querySelector('#pd-picture img')?.naturalWidth") == 200)

    # After a reload the list and the form show the second picture as the main one.
    driver.get(shop.url("/app/products?search=" + urllib.parse.quote(name)))
    wait(driver, lambda d: list_thumb(d, product["id"]) is not None)
    tag, src, _ = list_thumb(driver, product["id"])
    assert tag == "IMG" and main in src
    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    wait(driver, lambda d: form_pictures(d) == [(main, True), (other, False)])
    assert main in wait_for(driver, "#pf-preview img").get_attribute("src")
    driver.execute_script("document.getElementById('pf-pictures').scrollIntoView({block: 'center'})")
    screenshot(driver, "pictures-form-stored-1280")

    # Remove one (the other), save: the product keeps the main one, and the file of the removed one is gone.
    driver.find_element(By.CSS_SELECTOR, f"#pf-pictures .picture-item[data-name='{other}'] .picture-remove").click()
    wait(driver, lambda d: form_pictures(d) == [(main, True)])
    flash = save_and_wait(driver, product["id"])
    assert "Picture removed" in flash, flash
    stored = shop.api("GET", f"/api/v1/products/{product['id']}")
    assert [p["imageRef"] for p in stored["pictures"]] == [main] and stored["imageRef"] == main
    images = shop.data / "shop" / "images"
    assert (images / main).exists() and not (images / other).exists()
    assert wait_for(driver, "#pd-gallery", visible=False).get_attribute("hidden") is not None


def test_a_picture_that_fails_to_load_shows_the_icon(shop, signed_in):
    name = unique("Lost picture")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "1.00", "iconEmoji": "🧁"})
    with open(png((10, 160, 10)), "rb") as picture:
        uploaded = shop.call("POST", f"/api/v1/products/{product['id']}/pictures", picture.read(),
                             {"Authorization": "Bearer " + shop.token, "Content-Type": "image/png"})
    (shop.data / "shop" / "images" / uploaded["added"]["imageRef"]).unlink()  # lost, e.g. a backup restored without it
    driver = signed_in(shop, "admin", width=375, height=812)
    driver.get(shop.url("/app/products?search=" + urllib.parse.quote(name)))
    wait(driver, lambda d: (list_thumb(d, product["id"]) or [""])[0] == "SPAN")
    tag, _, broken = list_thumb(driver, product["id"])
    assert broken == "true"
    assert "🧁" in driver.find_element(By.CSS_SELECTOR, f"#product-list .product-row[data-id='{product['id']}'] .thumb").text
    driver.get(shop.url(f"/app/products/{product['id']}"))
    wait(driver, lambda d: d.execute_script("return document.querySelector('#pd-picture .thumb')?.tagName") == "SPAN")
    wait_idle(driver)
    screenshot(driver, "pictures-lost-shows-icon-375")

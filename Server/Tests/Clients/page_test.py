"""The page in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by Selenium loads fovea-serve's page, uploads
red_panda.jpg and waits for "lesser panda". Saves a screenshot.

    python page_test.py FOVEA_SERVE SCREENSHOT.png

Ends with `N passed, M failed`.
"""
import sys
import tempfile
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from serve_common import RED_PANDA, SQUEEZENET, Server


def main():
    serve, screenshot = sys.argv[1], sys.argv[2]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=900,900"]:
        options.add_argument(argument)
    passed = failed = 0
    with tempfile.NamedTemporaryFile(suffix=".log") as log, \
            Server(serve, "--model", f"squeezenet={SQUEEZENET}", "--no-grpc", log=log.name) as server:
        driver = webdriver.Chrome(service=ChromeService("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(f"http://{server.http}/")
            wait = WebDriverWait(driver, 60)
            wait.until(lambda d: d.find_element(By.ID, "model").get_attribute("value") == "squeezenet")
            driver.find_element(By.ID, "file").send_keys(RED_PANDA)
            wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "results"), "lesser panda"))
            top = driver.find_element(By.ID, "results").text
            assert "%" in top, top
            print("PASS page_shows_lesser_panda:", top.splitlines()[0])
            passed += 1
            # A threshold above the best confidence: "not sure".
            threshold = driver.find_element(By.ID, "threshold")
            threshold.clear()
            threshold.send_keys("100")
            wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "results"), "not sure"))
            print("PASS page_says_not_sure_above_the_threshold")
            passed += 1
            threshold.clear()
            threshold.send_keys("30")
            wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "results"), "lesser panda"))
        except Exception:
            failed += 1
            print("FAIL page test")
            traceback.print_exc()
            print(driver.find_element(By.TAG_NAME, "body").text)
        finally:
            driver.save_screenshot(screenshot)
            print(f"screenshot: {screenshot}")
            driver.quit()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

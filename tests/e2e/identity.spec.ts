/** Real-name authentication as a trader walks it, JavaScript on and off: the form, under review, certified; a rejection with its reason. */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { admin, chooseLanguage, logInRealAccount } from './fixtures';

async function idPhoto(shade: number) {
  const buffer = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: shade, g: 120, b: 160 } } })
    .jpeg()
    .toBuffer();
  return { name: `id-${shade}.jpg`, mimeType: 'image/jpeg', buffer };
}

async function submitIdentity(page: Page, name: string) {
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('ID or passport number').fill('A1234567');
  await page.getByLabel('Front of the ID or passport').setInputFiles(await idPhoto(40));
  await page.getByLabel('Back of the ID or passport').setInputFiles(await idPhoto(200));
  if (test.info().project.name === 'js-on') await expect(page.getByText('Uploaded')).toHaveCount(2);
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByText('Your identity was submitted for review.')).toBeVisible();
}

async function uidOf(page: Page) {
  await page.goto('/mine');
  return (
    await page
      .getByRole('region', { name: 'Your account' })
      .getByText(/^UID: \d+$/)
      .innerText()
  ).replace(/\D/g, '');
}

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('the form asks for each missing piece; submitted, it waits; approved, it is certified', async ({ page }) => {
  await logInRealAccount(page, 'kyc');
  const uid = await uidOf(page);
  await page.getByRole('link', { name: 'Real-name authentication' }).click();
  await expect(page.getByRole('heading', { name: 'Real-name authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByLabel('Full name')).toHaveAccessibleDescription('Please enter your name.');
  await expect(page.getByLabel('ID or passport number')).toHaveAccessibleDescription('Please enter a correct ID number.');

  await page.getByLabel('Full name').fill('Chan Tai Man');
  await page.getByLabel('ID or passport number').fill('A1234567');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByText('Please upload the front and back of your ID.').first()).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue('Chan Tai Man');

  await submitIdentity(page, 'Chan Tai Man');
  await expect(page.getByRole('heading', { name: 'Under review' })).toBeVisible();
  await expect(page.getByText('••••4567')).toBeVisible();

  await admin('POST', '/admin/kyc', { user: uid, action: 'approve' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Certified' })).toBeVisible();
  await expect(page.getByText('Chan Tai Man')).toBeVisible();
});

test('a rejection shows the form again with the reason', async ({ page }) => {
  await logInRealAccount(page, 'kyc-rejected');
  const uid = await uidOf(page);
  await page.goto('/mine/auth');
  await submitIdentity(page, 'Li Wei');
  await admin('POST', '/admin/kyc', { user: uid, action: 'reject', reason: 'The back photo is blurred.' });
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('The back photo is blurred.');
  await expect(page.getByRole('button', { name: 'Submit for review' })).toBeVisible();
});
